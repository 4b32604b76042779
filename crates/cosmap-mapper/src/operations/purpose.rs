//! Why a request is sent, as data; `Display` makes the sentence `cosmap model` prints.

use std::fmt;

/// Why a request is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Purpose {
    /// Reads the pattern's start element (from its home document, or from a copy).
    Read {
        /// The element read.
        element: String,
        /// Read from an optimisation copy.
        from_copy: bool,
    },
    /// A point read of `document` by id; the application matches the remaining
    /// filters on `element` (an object embedded in it).
    ReadMatchedInApplication {
        /// The document type read.
        document: String,
        /// The element matched.
        element: String,
        /// The filters the application matches.
        filters: Vec<String>,
    },
    /// Follows a reference to `target`, one point read.
    FollowReference {
        /// The referenced root.
        target: String,
    },
    /// Reads the `target`s the results' lists of references `reference` name, in one
    /// query for all of them (`ARRAY_CONTAINS(@…Ids, c.id)`, bound to the ids every
    /// result's list holds) instead of a point read each: chosen where that costs less.
    ReadListed {
        /// The referenced root.
        target: String,
        /// The list's property.
        reference: String,
    },
    /// Reads the claim of `element`'s unique `attribute` by the value looked up (a
    /// point read in the claims container): it names the owner's id and partition
    /// key, which the next request reads (claims as a lookup index).
    ReadClaim {
        /// The element whose value is claimed.
        element: String,
        /// The unique attribute.
        attribute: String,
    },
    /// Reads `target`, which nothing in `from` refers to: a scan of its documents.
    ScanUnreferenced {
        /// The element read.
        target: String,
        /// The document type read first.
        from: String,
    },
    /// Reads the `target`s that refer to the `from` read, through their `reference`
    /// (a list stored the other way round, MR6): a query.
    FindReferring {
        /// The element read.
        target: String,
        /// The element they refer to.
        from: String,
        /// Their reference's property.
        reference: String,
    },
    /// Counts the `element`s of each result of the read (a `COUNT` query per result).
    Count {
        /// The element counted.
        element: String,
        /// The element whose results it counts them for.
        per: String,
    },
    /// Writes `element`'s own document.
    Write {
        /// The element written.
        element: String,
        /// For a member of which the pattern's start holds several: written once
        /// for each.
        each: Option<Each>,
    },
    /// Rewrites `document`, which embeds the written `element`.
    RewriteEmbedding {
        /// The document type rewritten.
        document: String,
        /// The embedded element written.
        element: String,
    },
    /// Keeps the copy of `document` in `container` in sync (from the change feed).
    SyncCopy {
        /// The source document type.
        document: String,
        /// The container holding the copy.
        container: String,
    },
    /// Keeps the feed of `document` in `container` current (change feed): upserts the
    /// written document's short form, and on a create deletes the one it pushes out.
    SyncFeed {
        /// The source document type.
        document: String,
        /// The container holding the feed.
        container: String,
    },
    /// Finds the `document`s whose extended reference `reference` refers to the written
    /// `target` (a query), and rewrites each with the target's new values
    /// (`extendedReference`, from the change feed): once per such document.
    SyncExtendedReference {
        /// The document type holding the reference.
        document: String,
        /// The reference's property name.
        reference: String,
        /// The referenced root.
        target: String,
    },
    /// Follows a tree's parent link `reference` from the `target` read up to its root:
    /// one point read per ancestor, each through the reference the one before holds.
    FollowAncestors {
        /// The tree's element.
        target: String,
        /// The parent reference.
        reference: String,
    },
    /// Reads the new parent of the written `document` through `reference` (a point
    /// read), whose ancestors list and itself make the written one's (`treeAncestors`).
    ReadParentAncestors {
        /// The document type written.
        document: String,
        /// The parent reference.
        reference: String,
    },
    /// Finds every `document` whose ancestors list `property` holds the written one (a
    /// query), and rewrites each with the written one's new values and ancestors
    /// (`treeAncestors`, from the change feed): once per descendant.
    SyncAncestors {
        /// The document type holding the list.
        document: String,
        /// The tree's element.
        element: String,
        /// The ancestors list's property.
        property: String,
        /// The parent reference the ancestors follow.
        reference: String,
    },
    /// Reads the buckets of one parent whose windows the read's time range touches
    /// (`bucket`): the application takes the `element`s from their `items`, keeps those
    /// in the range, in order, up to the limit.
    ReadBuckets {
        /// The bucket document type.
        document: String,
        /// The element read.
        element: String,
        /// The buckets' list property.
        items: String,
        /// How the application keeps the items in range: the items' date-time attribute,
        /// and each bound as (parameter, comparison: `>`, `>=`, `<` or `<=`).
        time: String,
        /// Each bound on `time`: its parameter and its comparison.
        bounds: Vec<(String, String)>,
        /// The items newest first (the pattern sorts by its time descending).
        newest_first: bool,
        /// At most this many items (the pattern's `limit`).
        limit: Option<u64>,
    },
    /// Appends the written `element` to the bucket of its window (`bucket`): a patch
    /// that adds it to `items`, or a create of the bucket when it is the window's first.
    AppendToBucket {
        /// The bucket document type.
        document: String,
        /// The element written.
        element: String,
        /// The buckets' list property.
        items: String,
    },
    /// Keeps `document`'s count `property` of `element`s current after one is created
    /// or deleted (`computedValue`): a recount (a query), or the rewrite of the parent.
    UpdateCount {
        /// The parent document type.
        document: String,
        /// The count property.
        property: String,
        /// The counted element.
        element: String,
    },
    /// Reads the newest `element`s from `document`'s subset `property`, a point read
    /// (`subset`).
    ReadSubset {
        /// The parent document type.
        document: String,
        /// The subset property.
        property: String,
        /// The element read.
        element: String,
    },
    /// Keeps `document`'s subset `property` of the newest `element`s current after
    /// one is written (`subset`): a query for the newest, or the rewrite of the parent.
    UpdateSubset {
        /// The parent document type.
        document: String,
        /// The subset property.
        property: String,
        /// The element kept.
        element: String,
    },
    /// Claims `element`'s `attribute` value before writing it (uniqueClaim): a
    /// conflict (409) means the value is taken and nothing else is written.
    Claim {
        /// The element whose value is claimed.
        element: String,
        /// The unique attribute.
        attribute: String,
        /// For a member of which the pattern's start holds several: one claim each.
        each: Option<Each>,
    },
    /// Releases the claim on `element`'s `attribute` value after deleting it.
    ReleaseClaim {
        /// The element whose value was claimed.
        element: String,
        /// The unique attribute.
        attribute: String,
        /// For a member of which the pattern's start holds several: one release each.
        each: Option<Each>,
    },
    /// The naive design: reads or writes `element` in its own container.
    OwnContainer {
        /// The element.
        element: String,
        /// A write rather than a read.
        write: bool,
    },
}

/// A write sent once for each member of a pattern's start (each ticket of an
/// order): the plan sends it that often and the cost model prices it so.
#[derive(Debug, Clone, PartialEq)]
pub struct Each {
    /// The pattern's start, which holds the members (`Order`).
    pub of: String,
    /// How many it holds typically: the relationship's `avg`, else its `max`, else 1.
    pub typical: f64,
    /// Where `typical` comes from, as the plan says it.
    pub counted: Counted,
}

/// Where a typical count of members comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// The relationship's `avg`.
    OnAverage,
    /// The relationship's `max` (it gives no `avg`): the plan is priced at the most.
    AtMost,
    /// The relationship gives neither: one is assumed.
    Assumed,
}

/// A typical count is a finite number (`avg` or `max`), never NaN.
impl Eq for Each {}

impl fmt::Display for Each {
    /// ` of the `Order` (2.5 on average)`, `(4 at most)` or `(1 assumed: the model gives no count)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counted = match self.counted {
            Counted::OnAverage => "on average",
            Counted::AtMost => "at most",
            Counted::Assumed => "assumed: the model gives no count",
        };
        write!(f, " of the `{}` ({} {counted})", self.of, self.typical)
    }
}

impl Purpose {
    /// For a write sent once for each member of the pattern's start, how many.
    pub fn each(&self) -> Option<&Each> {
        match self {
            Purpose::Write { each, .. } | Purpose::Claim { each, .. } | Purpose::ReleaseClaim { each, .. } => {
                each.as_ref()
            }
            _ => None,
        }
    }
}

/// `each ` before an element written once per member, and what follows it.
fn each_of(each: &Option<Each>) -> (&'static str, String) {
    match each {
        Some(e) => ("each ", e.to_string()),
        None => ("", String::new()),
    }
}

impl fmt::Display for Purpose {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Purpose::Read { element, from_copy } => {
                write!(f, "reads `{element}`{}", if *from_copy { " from its copy" } else { "" })
            }
            Purpose::ReadMatchedInApplication {
                document,
                element,
                filters,
            } => {
                let matched: Vec<String> = filters.iter().map(|c| format!("`{c}`")).collect();
                write!(
                    f,
                    "reads `{document}` by id; the application matches `{element}` on {}",
                    matched.join(", ")
                )
            }
            Purpose::FollowReference { target } => write!(f, "reads the referenced `{target}`"),
            Purpose::ReadListed { target, reference } => {
                write!(f, "reads the `{target}`s `{reference}` lists, in one query")
            }
            Purpose::ReadClaim { element, attribute } => write!(
                f,
                "reads the claim of `{element}.{attribute}` by the value: it names the `{element}`"
            ),
            Purpose::ScanUnreferenced { target, from } => {
                write!(f, "reads `{target}`, which nothing in `{from}` refers to")
            }
            Purpose::FindReferring { target, from, reference } => write!(
                f,
                "reads the `{target}`s whose `{reference}` refers to the `{from}` read"
            ),
            Purpose::Count { element, per } => write!(f, "counts the `{element}`s of each `{per}` returned"),
            Purpose::FollowAncestors { target, reference } => write!(
                f,
                "reads each ancestor of the `{target}` read up `{reference}` to the root, one point read each"
            ),
            Purpose::ReadParentAncestors { document, reference } => write!(
                f,
                "reads the `{reference}` of the written `{document}`: its ancestors and itself become the written one's"
            ),
            Purpose::ReadBuckets {
                document,
                element,
                items,
                ..
            } => write!(
                f,
                "reads the `{document}`s whose windows the range touches; the application takes the `{element}`s in range from their `{items}`, in order"
            ),
            Purpose::ReadSubset {
                document,
                property,
                element,
            } => write!(f, "reads the newest `{element}`s from `{document}.{property}`"),
            Purpose::OwnContainer { element, write } => write!(
                f,
                "{} `{element}` in its own container",
                if *write { "writes" } else { "reads" }
            ),
            Purpose::Write { .. } | Purpose::RewriteEmbedding { .. } | Purpose::SyncCopy { .. } | Purpose::SyncFeed { .. } | Purpose::SyncExtendedReference { .. } | Purpose::SyncAncestors { .. } | Purpose::AppendToBucket { .. } | Purpose::UpdateCount { .. } | Purpose::UpdateSubset { .. } | Purpose::Claim { .. } | Purpose::ReleaseClaim { .. } => self.fmt_write(f),
        }
    }
}

impl Purpose {
    /// The text of a purpose of a write pattern (see `Display`).
    fn fmt_write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Purpose::Write { element, each } => {
                let (each, of) = each_of(each);
                write!(f, "writes {each}`{element}`{of}")
            }
            Purpose::RewriteEmbedding { document, element } => {
                write!(f, "rewrites `{document}`, which embeds `{element}`")
            }
            Purpose::SyncCopy { document, container } => {
                write!(
                    f,
                    "keeps the copy of `{document}` in `{container}` in sync (change feed)"
                )
            }
            Purpose::SyncFeed { document, container } => write!(
                f,
                "keeps the feed of `{document}` in `{container}` current (change feed; a create also trims the oldest)"
            ),
            Purpose::SyncExtendedReference {
                document,
                reference,
                target,
            } => write!(
                f,
                "rewrites each `{document}` whose `{reference}` refers to the written `{target}` with its new values (change feed)"
            ),
            Purpose::SyncAncestors {
                document, property, ..
            } => write!(
                f,
                "rewrites each `{document}` whose `{property}` holds the written one with its new values and ancestors (change feed)"
            ),
            Purpose::AppendToBucket { document, element, items } => write!(
                f,
                "appends the `{element}` to `{items}` of the `{document}` of its window (a patch; the window's first creates it)"
            ),
            Purpose::UpdateCount {
                document,
                property,
                element,
            } => write!(
                f,
                "keeps `{document}.{property}`, its number of `{element}`s, current"
            ),
            Purpose::UpdateSubset {
                document,
                property,
                element,
            } => write!(
                f,
                "keeps `{document}.{property}`, its newest `{element}`s, current"
            ),
            Purpose::Claim {
                element,
                attribute,
                each,
            } => {
                let (each, of) = each_of(each);
                write!(
                    f,
                    "claims the `{attribute}` of {each}`{element}`{of} first; a conflict (409) means it is taken: write nothing"
                )
            }
            Purpose::ReleaseClaim {
                element,
                attribute,
                each,
            } => {
                let the = if each.is_some() { "each" } else { "the" };
                let (_, of) = each_of(each);
                write!(f, "releases the claim on the `{attribute}` of {the} deleted `{element}`{of}")
            }
            // The reads, written by `fmt`.
            _ => Ok(()),
        }
    }
}
