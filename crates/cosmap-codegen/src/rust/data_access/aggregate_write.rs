//! A write pattern that writes several documents of one aggregate (an order and its
//! tickets) as one typed function (`place_an_order(&mut order, &mut tickets)`),
//! made from the mapper's plan: its requests sent in the plan's order, claims first,
//! the documents of the aggregate's partition in one transactional batch, the
//! releases last.

use cosmap_domain::naming::{lower_camel, plural, snake_case};
use cosmap_mapper::operations::{Operation, Purpose, Request, ValueSource, WriteKind};

use super::{
    claim_set_of, doc_view, handle_of, headline, module_of, names, AggregateWriteView, Context, DocumentsView,
    PatternView, ReturnsView, SendView, StepView, StepWriteView, WrittenParamView,
};

/// The request `r` as `cosmap model` lists it: `create Ticket in `Order``.
pub(crate) fn request_line(r: &Request) -> String {
    let what = r
        .write()
        .map_or_else(|| r.kind().as_str().to_string(), |w| w.as_str().to_string());
    format!("{what} {} in `{}`", r.document_types.join(", "), r.container)
}

/// The doc lines that list the requests a write function sends, in the plan's order
/// (those kept from the change feed are its workers').
pub(crate) fn sent_in_order(op: &Operation) -> Vec<String> {
    let mut out = vec![
        String::new(),
        "Sends, in this order (the plan's, as `cosmap model` lists it):".to_string(),
    ];
    let sent = op.requests.iter().filter(|r| sent_by_function(r));
    out.extend(
        sent.enumerate()
            .map(|(i, r)| format!("{}. {}: {}.", i + 1, request_line(r), r.purpose)),
    );
    out
}

/// Whether the application sends `r` itself (its partition key is known when it
/// writes), rather than a change-feed worker.
fn sent_by_function(r: &Request) -> bool {
    r.partition_key().is_some_and(ValueSource::is_given)
}

/// The view of write pattern `op`, whose own writes are `mains` (more than one): the
/// documents of one aggregate, with their claims and releases, in one transactional
/// batch per logical partition, in the plan's order.
pub(super) fn view(
    cx: &Context<'_>,
    op: &Operation,
    mut view: PatternView,
    mut docs: Vec<String>,
    mains: &[&Request],
) -> Result<PatternView, String> {
    let Some(first) = mains.first() else {
        return Err("it writes no document of its own".into());
    };
    if !mains.iter().all(|r| sent_by_function(r)) {
        return Err("a partition it writes is not known from what it is given".into());
    }
    let mut b = Body::default();
    let last_write = op
        .requests
        .iter()
        .rposition(|r| mains.iter().any(|m| std::ptr::eq(*m, r)))
        .unwrap_or(0);
    for (i, r) in op.requests.iter().enumerate() {
        if let Some(line) = b.step(cx, mains, r)? {
            if !docs.contains(&line) {
                docs.push(line);
            }
        }
        if i == last_write {
            b.send(true);
        }
    }
    let written: Vec<String> = mains.iter().map(|m| m.purpose.to_string()).collect();
    docs[0] = headline(op, &written.join("; "));
    match (op.not_atomic_advice(), b.batches) {
        (Some(advice), 0 | 1) => docs.push(format!(
            "It is {advice}. This function sends them in that order and releases its claims if the batch fails."
        )),
        (None, 0 | 1) => {}
        (advice, batches) => {
            docs.extend(advice.map(|a| format!("It is {a}.")));
            docs.extend(partitions_docs(batches, mains, b.claims));
        }
    }
    docs.extend(sent_in_order(op));
    let handle = handle_of(cx.handles, &first.container)?;
    view.field = handle.field.clone();
    view.handle = handle.handle.clone();
    view.returns = ReturnsView::new("()", false, false);
    view.docs = docs;
    view.aggregate_write = Some(Box::new(AggregateWriteView {
        params: b.params,
        steps: b.steps,
        claims: b.claims,
    }));
    Ok(view)
}

/// What a function that writes `batches` (several) transactional batches (with
/// `claims` or not) leaves when one fails part-way, and whether calling it again is safe.
fn partitions_docs(batches: usize, mains: &[&Request], claims: bool) -> Vec<String> {
    let mut out = vec![format!(
        "This function sends them in that order, one transactional batch per logical partition ({batches}): not atomic across them. A batch that fails writes nothing of its own, and the batches before it stay written: readers may see those without the rest."
    )];
    let replaces = |r: &&Request| r.write().unwrap_or(WriteKind::Replace) == WriteKind::Replace;
    out.push(if mains.iter().all(replaces) {
        "Calling it again with the same documents after a failure is safe: each written batch gave its documents their new etags, so it writes the same values again at that version, and the rest at the versions given.".into()
    } else {
        "Calling it again after a failure part-way is not safe as it is: a create already written fails with `Error::Exists` and a delete already done fails its batch; call it again with only what was not written.".into()
    });
    if claims {
        out.push("Its values are claimed before the first batch. Once a batch is written its documents keep their claims; a batch that fails releases the claims of its documents and of those after it. The claims of deleted documents are released after the last batch, so a failure part-way leaves them taken until they are released.".into());
    }
    out
}

/// An aggregate's write as it is made, step by step (see [`AggregateWriteView`]).
#[derive(Default)]
struct Body {
    params: Vec<WrittenParamView>,
    steps: Vec<StepView>,
    claims: bool,
    /// The batch being made: its container and partition (a write to another sends it first).
    batch: Option<(String, Option<ValueSource>)>,
    /// The `Database` field and handle of its container, and its first parameter's ident.
    field: String,
    handle: String,
    first: String,
    /// The element whose partition the batch writes (`Order`).
    aggregate: String,
    /// The documents that take the batch's etags, in its order.
    etags: Vec<DocumentsView>,
    /// How many batches it sends.
    batches: usize,
    /// The claim documents' types (`super::unique_claims::TicketCodeClaim`) each
    /// element's claims make, and the elements the batch being made writes.
    claimed: Vec<(String, Vec<String>)>,
    written: Vec<String>,
}

impl Body {
    /// The step of request `r`; for one a change-feed worker sends, the doc line
    /// that says so instead.
    fn step(&mut self, cx: &Context<'_>, mains: &[&Request], r: &Request) -> Result<Option<String>, String> {
        let line = format!("{}. {}: {}", self.steps.len() + 1, request_line(r), r.purpose);
        match &r.purpose {
            Purpose::Write { element, each } => self.write(cx, r, element, each.is_some(), line)?,
            // The document that embeds a written element: the caller gives it with the
            // element changed in it, and it is rewritten like any other.
            Purpose::RewriteEmbedding { document, .. } => self.write(cx, r, document, false, line)?,
            Purpose::Claim { element, each, .. } | Purpose::ReleaseClaim { element, each, .. } => {
                self.claim(cx, mains, r, element, each.is_some(), line)?
            }
            p if !sent_by_function(r) => {
                return Ok(Some(format!(
                    "Then, from the change feed: {} (its worker).",
                    lower_camel(&p.to_string())
                )))
            }
            p => {
                return Err(format!(
                    "it also {} in the same request flow, which generated functions do not do yet",
                    lower_camel(&p.to_string())
                ))
            }
        }
        Ok(None)
    }

    /// The parameter of `element`: its list (`tickets`) when the start holds
    /// several, else the document (`order`).
    fn ident(element: &str, several: bool) -> String {
        if several {
            names::field(&plural(&lower_camel(element)))
        } else {
            names::field(&snake_case(element))
        }
    }

    /// The documents of `element`'s parameter, taken as `taken` says.
    fn documents(element: &str, several: bool, taken: WriteKind) -> DocumentsView {
        let ident = Self::ident(element, several);
        let taken = taken.as_str();
        DocumentsView { ident, several, taken }
    }

    /// The write of `element`'s documents (request `r`): a parameter and a batch
    /// operation each; a write to another partition than the batch's sends it first.
    fn write(
        &mut self,
        cx: &Context<'_>,
        r: &Request,
        element: &str,
        several: bool,
        line: String,
    ) -> Result<(), String> {
        let (handle, cv) = (handle_of(cx.handles, &r.container)?, module_of(cx.rust, &r.container)?);
        doc_view(cv, &r.document_types[0])?;
        let ident = Self::ident(element, several);
        let batch = (r.container.clone(), r.partition_key().cloned());
        if self.batch.as_ref() != Some(&batch) {
            self.send(false);
            self.batch = Some(batch);
            (self.field, self.handle) = (handle.field.clone(), handle.handle.clone());
            (self.first, self.aggregate) = (ident.clone(), element.to_string());
        }
        let write = r.write().unwrap_or(WriteKind::Replace);
        let body = write != WriteKind::Delete;
        let document = format!("super::{}::{}", cv.module, r.document_types[0]);
        if self.params.iter().any(|p| p.ident == ident) {
            return Err(format!("it writes `{element}` twice"));
        }
        self.params.push(WrittenParamView {
            ident,
            document,
            several,
            mutable: body,
        });
        self.written.push(element.to_string());
        if body {
            self.etags.push(Self::documents(element, several, WriteKind::Replace));
        }
        // Read to build the batch (a delete's parameters are shared, others mutable).
        let read = if body { WriteKind::Create } else { WriteKind::Delete };
        let documents = Self::documents(element, several, read);
        let kind = write.as_str();
        let write = Some(StepWriteView { kind, body, send: None });
        self.steps.push(StepView {
            line,
            documents,
            claim: None,
            release: None,
            write,
        });
        Ok(())
    }

    /// The batch made since the last, sent after its last write step (nothing when
    /// no write is waiting); unless it is the `last`, the claims of its documents are
    /// theirs once it is written (a later batch that fails does not release them).
    fn send(&mut self, last: bool) {
        let written = std::mem::take(&mut self.written);
        let Some(last_write) = self.steps.iter_mut().rev().find_map(|s| s.write.as_mut()) else {
            return;
        };
        if last_write.send.is_some() {
            return;
        }
        let keep = self
            .claimed
            .iter()
            .filter(|(element, _)| !last && written.contains(element))
            .flat_map(|(_, types)| types.iter().cloned())
            .collect();
        let first = self.first.clone();
        last_write.send = Some(SendView {
            line: format!("The writes above, as one transactional batch in the partition of `{first}`: all or none."),
            first,
            field: self.field.clone(),
            handle: self.handle.clone(),
            aggregate: self.aggregate.clone(),
            etags: std::mem::take(&mut self.etags),
            claims: self.claims,
            keep,
        });
        self.batches += 1;
    }

    /// The claim or release (request `r`) of the unique values of `element`'s documents.
    fn claim(
        &mut self,
        cx: &Context<'_>,
        mains: &[&Request],
        r: &Request,
        element: &str,
        several: bool,
        line: String,
    ) -> Result<(), String> {
        let written = mains
            .iter()
            .find(|m| matches!(&m.purpose, Purpose::Write { element: e, .. } if e == element))
            .ok_or_else(|| format!("it claims a value of `{element}`, which it does not write"))?;
        let owner = written.document_types.first().ok_or("it writes no document type")?;
        let module = &module_of(cx.rust, &written.container)?.module;
        let set =
            claim_set_of(cx.claim_sets, module, owner).ok_or_else(|| format!("`{owner}` has no claim function"))?;
        let claim = matches!(r.purpose, Purpose::Claim { .. });
        if claim {
            let types = cx.claim_sets.iter().filter(|s| s.function == set);
            let types = types.flat_map(|s| s.claims.iter().map(|c| c.document.clone()));
            self.claimed.push((element.to_string(), types.collect()));
        }
        self.claims = true;
        let documents = Self::documents(element, several, r.write().unwrap_or(WriteKind::Create));
        let (claim, release) = if claim { (Some(set), None) } else { (None, Some(set)) };
        let write = None;
        self.steps.push(StepView {
            line,
            documents,
            claim,
            release,
            write,
        });
        Ok(())
    }
}
