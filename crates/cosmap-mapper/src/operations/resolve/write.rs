//! Writes: the requests a write pattern sends, claims and copies included.

use super::*;

/// How many of `element`, a member of its aggregate, the start of write pattern `p`
/// holds, when several: the member is written (and its values claimed) once for
/// each. Of two relationships between them, the larger count (whatever their order).
pub(crate) fn members(model: &DomainModel, p: &AccessPattern, element: &str) -> Option<crate::operations::Each> {
    if element == p.start || model.is_root(element) || !model.same_aggregate(&p.start, element) {
        return None;
    }
    use crate::operations::Counted;
    let (typical, counted) = model
        .relationships_from(&p.start)
        .filter(|r| r.to == element && r.is_many())
        .map(|r| match (r.avg, r.max) {
            (Some(avg), _) => (avg, Counted::OnAverage),
            (None, Some(max)) => (max as f64, Counted::AtMost),
            (None, None) => (1.0, Counted::Assumed),
        })
        .reduce(|a, b| if b.0 > a.0 { b } else { a })?;
    Some(crate::operations::Each {
        of: p.start.clone(),
        typical,
        counted,
    })
}

/// What every element's writes of one write pattern look at.
struct Writing<'w> {
    model: &'w DomainModel,
    all: &'w Places<'w>,
    claims: &'w [&'w Container],
    keepers: &'w Keepers<'w>,
    p: &'w AccessPattern,
    kind: WriteKind,
}

/// The requests of write pattern `p`: for the start and each element it returns,
/// the write of its document, with the reads before, the claims around and the
/// writes after it that keep derived data, copies and feeds current.
pub(super) fn write<'w>(
    model: &'w DomainModel,
    all: &'w Places<'w>,
    claims: &'w [&'w Container],
    keepers: &'w Keepers<'w>,
    p: &'w AccessPattern,
) -> Option<Operation> {
    let kind = match p.write.unwrap_or(WriteOperation::Replace) {
        WriteOperation::Create => WriteKind::Create,
        WriteOperation::Replace => WriteKind::Replace,
        WriteOperation::Delete => WriteKind::Delete,
    };
    let w = Writing {
        model,
        all,
        claims,
        keepers,
        p,
        kind,
    };
    let mut elements = vec![p.start.as_str()];
    elements.extend(p.returns.iter().map(String::as_str).filter(|r| *r != p.start));
    let mut requests: Vec<Request> = Vec::new();
    // Claims released after every other write of the pattern.
    let mut releases: Vec<Request> = Vec::new();
    for element in elements {
        let Some(home) = places(all, element, false).next() else {
            continue;
        };
        let (c, d) = (home.container, home.document);
        if requests
            .iter()
            .any(|r| r.container == c.name && r.document_types[0] == d.name)
        {
            continue;
        }
        w.element(element, home, &mut requests, &mut releases);
    }
    requests.extend(releases);
    Operation::new(p.name.clone(), p.per_second, requests)
}

impl Writing<'_> {
    /// The requests that write `element` (at `home`), added to `requests`; the
    /// releases of its claims to `releases`.
    fn element(&self, element: &str, home: &Location<'_>, requests: &mut Vec<Request>, releases: &mut Vec<Request>) {
        let (c, d) = (home.container, home.document);
        let whole = home.path.is_empty();
        // Writing an embedded object rewrites the document that holds it.
        let this = if whole { self.kind } else { WriteKind::Replace };
        let partition_key = write_key(c, d);
        // A child kept in a bucket: appended to its window's bucket.
        if let Some(b) = d.bucket.as_ref().filter(|_| whole) {
            let action = Action::Write {
                write: WriteKind::Replace,
                partition_key,
                id: ValueSource::Window {
                    parameter: b.time.clone(),
                    length: b.window.prefix_len(),
                },
            };
            let purpose = Purpose::AppendToBucket {
                document: d.name.clone(),
                element: element.to_string(),
                items: b.items.clone(),
            };
            requests.push(Request::new(action, &c.name, &d.name, purpose));
            return;
        }
        let id = identity_of(d).unwrap_or("id");
        // A tree's element created or moved: its new parent is read first, whose
        // ancestors and itself make the written one's list (treeAncestors).
        if whole && matches!(this, WriteKind::Create | WriteKind::Replace) {
            requests.extend(read_parents(c, d));
        }
        // Its own write, whose place the claims come before and whose key the derived
        // data kept in its logical partition shares.
        let own = requests.len();
        let action = Action::Write {
            write: this,
            partition_key: partition_key.clone(),
            id: ValueSource::Parameter(id.to_string()),
        };
        let purpose = if whole {
            Purpose::Write {
                element: element.to_string(),
                each: members(self.model, self.p, element),
            }
        } else {
            Purpose::RewriteEmbedding {
                document: d.name.clone(),
                element: element.to_string(),
            }
        };
        requests.push(Request::new(action, &c.name, &d.name, purpose));
        if whole {
            self.keep_derived(c, d, this, &partition_key, requests);
        }
        // A unique value no unique key enforces is claimed before any document of
        // the pattern is written (a taken value writes nothing), and released after
        // every write (uniqueClaim).
        if whole && matches!(this, WriteKind::Create | WriteKind::Delete) {
            self.claim(element, c, d, this, own, requests, releases);
        }
        requests.extend(sync_copies(self.all, c, d, this, id));
    }

    /// The requests that keep data derived from `d` (in `c`, written as `this` with
    /// partition key `key`) current: its parent's subsets and counts, and for a root
    /// replaced the extended references to it and the ancestors lists below it.
    fn keep_derived(
        &self,
        c: &Container,
        d: &DocumentType,
        this: WriteKind,
        key: &ValueSource,
        requests: &mut Vec<Request>,
    ) {
        // A child written: the subsets of the newest kept in its parent (subset).
        requests.extend(update_subsets(self.keepers, c, d, key));
        // A child created or deleted: the counts kept on its parent (computedValue).
        if matches!(this, WriteKind::Create | WriteKind::Delete) {
            requests.extend(update_counts(self.keepers, c, d, key));
        }
        // A root replaced: every document that stores its attributes beside a
        // reference to it is found and rewritten (extendedReference).
        if this == WriteKind::Replace && d.role == Role::Root {
            requests.extend(refresh_extended(self.keepers, d));
            requests.extend(refresh_ancestors(c, d));
        }
    }

    /// The claims of `element`'s unique values (`d` in `c`, written as `this`): a
    /// create's before the first write of the pattern (else its own, at `own`), a
    /// delete's releases after every write.
    #[allow(clippy::too_many_arguments)]
    fn claim(
        &self,
        element: &str,
        c: &Container,
        d: &DocumentType,
        this: WriteKind,
        own: usize,
        requests: &mut Vec<Request>,
        releases: &mut Vec<Request>,
    ) {
        for (claims, claim, of) in claims_of(self.claims, &c.name, &d.name) {
            let action = Action::Write {
                write: this,
                partition_key: ValueSource::Parameter(of.attribute.clone()),
                id: ValueSource::Constant(claim.discriminator.clone()),
            };
            let (element, attribute) = (element.to_string(), of.attribute.clone());
            let each = members(self.model, self.p, &element);
            let purpose = if this == WriteKind::Create {
                Purpose::Claim {
                    element,
                    attribute,
                    each,
                }
            } else {
                Purpose::ReleaseClaim {
                    element,
                    attribute,
                    each,
                }
            };
            let request = Request::new(action, &claims.name, &claim.name, purpose);
            if this == WriteKind::Create {
                let first_write = requests
                    .iter()
                    .position(|r| {
                        matches!(r.action, Action::Write { .. }) && !matches!(r.purpose, Purpose::Claim { .. })
                    })
                    .unwrap_or(own);
                requests.insert(first_write, request);
            } else {
                releases.push(request);
            }
        }
    }
}

/// The partition key a write of `d` (in `c`) gives: a dictionary's constant, else
/// a parameter per level of the key.
fn write_key(c: &Container, d: &DocumentType) -> ValueSource {
    match c.kind {
        ContainerKind::Dictionary => ValueSource::Constant(d.discriminator.clone()),
        ContainerKind::Aggregate | ContainerKind::Claims => {
            let levels = c.partition_key_properties();
            key_from(
                levels.iter().map(|l| ValueSource::Parameter(l.to_string())).collect(),
                levels.len(),
            )
        }
    }
}

/// The writes of the copies and feeds of `d` (in `c`, written as `this` by `id`).
fn sync_copies(all: &Places<'_>, c: &Container, d: &DocumentType, this: WriteKind, id: &str) -> Vec<Request> {
    let copies = places(all, &d.source, true).filter_map(|l| {
        let of = l.document.copy_of.as_ref()?;
        (l.path.is_empty() && of.container == c.name && of.document_type == d.name).then_some((l, of))
    });
    copies
        .map(|(copy, of)| {
            let target = copy.container;
            let action = Action::Write {
                write: this,
                partition_key: ValueSource::Property(of.partition_key_from.clone()),
                id: ValueSource::Parameter(id.to_string()),
            };
            let (document, container) = (d.name.clone(), target.name.clone());
            let purpose = if of.newest.is_some() {
                Purpose::SyncFeed { document, container }
            } else {
                Purpose::SyncCopy { document, container }
            };
            Request::new(action, &target.name, &copy.document.name, purpose)
        })
        .collect()
}

/// The point read of the parent of `d` (in `c`) for each ancestors list `d` keeps:
/// through the parent reference the written document holds (none at a root).
pub(super) fn read_parents(c: &Container, d: &DocumentType) -> Vec<Request> {
    d.references
        .iter()
        .filter_map(|r| r.ancestry.as_ref())
        .filter_map(|a| d.references.iter().find(|r| r.name == a.parent && !r.many))
        .map(|parent| {
            let purpose = Purpose::ReadParentAncestors {
                document: d.name.clone(),
                reference: parent.name.clone(),
            };
            Request::new(Action::through_reference(&parent.name), &c.name, &d.name, purpose)
        })
        .collect()
}

/// The claim document types (with their container) on `document_type` of `container`,
/// among the `claims` containers.
pub(super) fn claims_of<'c>(
    claims: &'c [&'c Container],
    container: &'c str,
    document_type: &'c str,
) -> impl Iterator<Item = (&'c Container, &'c DocumentType, &'c ClaimOf)> {
    claims
        .iter()
        .copied()
        .flat_map(|k| k.document_types.iter().map(move |d| (k, d)))
        .filter_map(move |(k, d)| {
            let of = d.claim_of.as_deref()?;
            (of.container == container && of.document_type == document_type).then_some((k, d, of))
        })
}
