//! One design's figures: its containers' sizes ([`facts`](super::facts)), each
//! request's charge ([`units`]), and the physical partitions each container needs
//! for its storage and for its own workload (the fan-out of its cross-partition
//! queries included). The cost table and the mapper's decisions read the same
//! figures from here.

use std::cell::OnceCell;
use std::collections::BTreeMap;

use cosmap_domain::{AccessPattern, DomainModel, Element, Filter, FilterOp, NameMap};

use super::constants::*;
use super::estimate::{Consistency, DesignCost};
use super::facts::{self, DocFacts, Facts};
use super::provisioned::{Provisioned, ThroughputSource};
use super::units::{self, Charge};
use crate::logical_model::Container;
use crate::operations::{Operation, OperationKind, Purpose, Request, WriteKind};
use crate::options::Thresholds;
use crate::statistics::{human_bytes, human_count, human_rate, Statistics};

/// One design's figures, with partitions sized for its own workload.
pub(crate) struct Design<'m> {
    model: &'m DomainModel,
    /// Each container's facts, physical partitions and RU/s, in name order.
    facts: Vec<(String, ContainerFigured)>,
    /// Where each container's name is in `facts`: looked up per request, never iterated.
    index: NameMap<String, usize>,
    consistency: Consistency,
    /// The operations the design was made with (borrowed, never copied), in their order.
    operations: &'m [Operation],
    /// Each of `operations`' requests' charges as figured while sizing the partitions,
    /// in their order. See [`Design::request_rus`].
    charges: Vec<Vec<StoredCharge>>,
}

/// One request's charge as [`Design::new`] figured it, kept so that its RU need not
/// be figured again.
#[derive(Clone, Copy)]
struct StoredCharge {
    /// Where the request's container is in [`Design::facts`] (`None`: not in this design).
    container: Option<usize>,
    /// `None` where the charge depends on the partition counts figured after it (a
    /// query given a prefix of a hierarchical key).
    charge: Option<Charge>,
}

/// One container's facts with the partitions and RU/s of its workload.
struct ContainerFigured {
    facts: facts::ContainerFacts,
    partitions: f64,
    ru_per_second: f64,
    /// The RU/s its cross-partition queries add per physical partition.
    fan_out: f64,
    /// The provisioned throughput its partitions follow, and where it came from.
    throughput: Provisioned,
}

impl<'m> Design<'m> {
    /// The figures of a design made of `facts` and running `operations`.
    pub(crate) fn new(
        model: &'m DomainModel,
        facts: Facts,
        operations: &'m [Operation],
        consistency: Consistency,
    ) -> Self {
        let facts: Vec<(String, ContainerFigured)> = facts
            .into_iter()
            .map(|(name, facts)| {
                let figured = ContainerFigured {
                    facts,
                    partitions: 1.0,
                    ru_per_second: 0.0,
                    fan_out: 0.0,
                    throughput: Provisioned::default(),
                };
                (name, figured)
            })
            .collect();
        let index = facts
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (name.clone(), i))
            .collect();
        let mut design = Design {
            model,
            facts,
            index,
            consistency,
            operations,
            charges: Vec::new(),
        };
        // Load on a container = fixed + per_partition × partitions (the fan-out of its
        // cross-partition queries). Its partitions are max(storage after growthYears /
        // 50 GB, provisioned RU/s / 10,000): provisioned as `thresholds.throughput`
        // says, or with its own load (times the headroom), solved for the fewest
        // partitions that carry it. Each container's sums (by its place in `facts`) add
        // its requests in the operations' order.
        let mut fixed = vec![0.0; design.facts.len()];
        let mut fan_out = vec![0.0; design.facts.len()];
        let mut stored = Vec::with_capacity(operations.len());
        for op in operations {
            let op = design.operating(op);
            let mut charges = Vec::with_capacity(op.op.requests.len());
            for r in &op.op.requests {
                // Its container looked up once, for every figure of the request.
                let container = design.index.get(r.container.as_str()).copied();
                let c = container.map(|i| &design.facts[i].1.facts);
                let charge = design.charge_in(&op, r, c);
                charges.push(StoredCharge {
                    container,
                    charge: (!design.fans_by_prefix(r, c)).then_some(charge),
                });
                if let Some(i) = container {
                    fixed[i] += charge.fixed * op.op.per_second;
                    fan_out[i] += charge.per_partition * op.op.per_second;
                }
            }
            stored.push(charges);
        }
        let setting = model.thresholds().throughput.unwrap_or_default();
        for (i, (_, figured)) in design.facts.iter_mut().enumerate() {
            let grown = figured.facts.grown_storage_bytes.max(figured.facts.storage_bytes);
            let (partitions, throughput) = Provisioned::partitions(&setting, grown, fixed[i], fan_out[i]);
            figured.partitions = partitions;
            figured.ru_per_second = fixed[i] + fan_out[i] * partitions;
            figured.fan_out = fan_out[i];
            figured.throughput = throughput;
        }
        design.charges = stored;
        design
    }

    /// Each of `operations` with the cost of one execution and at its rate, in their
    /// order; the charges this design was made with are taken again (see
    /// [`Design::request_rus`]).
    pub(crate) fn operation_costs<'a>(
        &'a self,
        operations: &'a [Operation],
    ) -> impl Iterator<Item = (&'a Operation, DesignCost)> + 'a {
        self.with_charges(operations)
            .map(|(op, stored)| (op, self.operation_cost(op, stored)))
    }

    /// The cost of one execution of `op` and at its rate: its requests' RU added in
    /// their order (`stored`: their charges, as [`Design::with_charges`] gives them).
    fn operation_cost(&self, op: &Operation, stored: &[StoredCharge]) -> DesignCost {
        let ru: f64 = self.rus(op, stored).sum();
        DesignCost {
            operation: op.kind,
            ru: units::round(ru),
            ru_per_second: units::round(ru * op.per_second),
            requests: op.requests.len(),
        }
    }

    /// The patterns this design sends without a query across partitions (a point
    /// read, a claim's lookup, a query in one partition): no copy can make them
    /// cheaper by keeping them in one partition.
    pub(crate) fn read_within_partitions(&self) -> std::collections::BTreeSet<&str> {
        self.operations
            .iter()
            .filter(|op| {
                op.requests
                    .iter()
                    .all(|r| r.kind() != OperationKind::CrossPartitionQuery)
            })
            .map(|op| op.pattern.as_str())
            .collect()
    }

    /// Request units of one execution of `r`, at its container's partition count.
    pub(crate) fn request_ru(&self, op: &Operation, r: &Request) -> f64 {
        self.charge(op, r).at(self.partitions(&r.container))
    }

    /// [`Design::request_ru`] of each request of `operations`, in their order, when
    /// they are the operations this design was made with: the charges figured then
    /// are taken again (at the partition counts figured after them) instead of being
    /// figured twice, except where they depend on those counts. Other operations (any
    /// whose pattern or requests differ from the one made at its place) are figured
    /// afresh.
    pub(crate) fn request_rus(&self, operations: &[Operation]) -> Vec<Vec<f64>> {
        self.with_charges(operations)
            .map(|(op, stored)| self.rus(op, stored).collect())
            .collect()
    }

    /// Each of `operations` with the charges stored for its requests when it is the
    /// operation this design was made with at its place (the same pattern and
    /// requests); with none otherwise.
    fn with_charges<'a>(
        &'a self,
        operations: &'a [Operation],
    ) -> impl Iterator<Item = (&'a Operation, &'a [StoredCharge])> + 'a {
        operations.iter().enumerate().map(move |(i, op)| {
            let stored = self.charges.get(i).filter(|_| self.made_with(i, op));
            (op, stored.map_or(&[][..], Vec::as_slice))
        })
    }

    /// Whether `op` is the operation this design was made with at place `i`: the very
    /// one, or the same pattern and requests (all a request's charge depends on
    /// besides the design).
    fn made_with(&self, i: usize, op: &Operation) -> bool {
        self.operations
            .get(i)
            .is_some_and(|mine| std::ptr::eq(mine, op) || (mine.pattern == op.pattern && mine.requests == op.requests))
    }

    /// [`Design::request_ru`] of each request of `op`, in order: its stored charge (one
    /// of `stored`, by position) at its container's partition count, or where none is
    /// stored figured afresh.
    fn rus<'a>(&'a self, op: &'a Operation, stored: &'a [StoredCharge]) -> impl Iterator<Item = f64> + 'a {
        op.requests.iter().enumerate().map(move |(i, r)| match stored.get(i) {
            Some(StoredCharge {
                container,
                charge: Some(charge),
            }) => charge.at(container.map_or(1.0, |c| self.facts[c].1.partitions)),
            _ => self.request_ru(op, r),
        })
    }

    /// Whether `r`'s charge depends on its container's partition count: a query given
    /// a prefix of a hierarchical key checks the partitions holding it, at most all.
    /// (`c`: its container's facts.)
    fn fans_by_prefix(&self, r: &Request, c: Option<&facts::ContainerFacts>) -> bool {
        let query = matches!(
            r.kind(),
            OperationKind::SinglePartitionQuery | OperationKind::CrossPartitionQuery
        );
        query && c.and_then(|c| self.prefix_span(r, c)).is_some_and(|span| span > 1.0)
    }

    /// Physical partitions of `container` in this design (1 when unknown).
    pub(crate) fn partitions(&self, container: &str) -> f64 {
        self.figured(container).map_or(1.0, |c| c.partitions)
    }

    /// `container`'s facts and figures, when it is in this design.
    fn figured(&self, container: &str) -> Option<&ContainerFigured> {
        self.index.get(container).map(|&i| &self.facts[i].1)
    }

    /// `container`'s facts, when it is in this design.
    fn facts_of(&self, container: &str) -> Option<&facts::ContainerFacts> {
        self.figured(container).map(|c| &c.facts)
    }

    /// Estimated storage of `container` in bytes (0 when unknown).
    pub(crate) fn storage_bytes(&self, container: &str) -> f64 {
        self.facts_of(container).map_or(0.0, |f| f.storage_bytes)
    }

    /// Each container's figures, in name order.
    pub(crate) fn containers(&self) -> Vec<ContainerFigures> {
        self.facts
            .iter()
            .map(|(name, c)| ContainerFigures {
                name: name.clone(),
                items: c.facts.documents.values().map(|d| d.count).sum(),
                storage_bytes: c.facts.storage_bytes,
                logical_partitions: c.facts.partition_key_values,
                physical_partitions: c.partitions,
                ru_per_second: c.ru_per_second,
                grown_storage_bytes: c.facts.grown_storage_bytes.max(c.facts.storage_bytes),
                growth_years: c.facts.growth_years,
                partitions_by_storage: units::physical_partitions(c.facts.grown_storage_bytes, 0.0),
                throughput: c.throughput,
            })
            .collect()
    }

    /// The charge of `r` (part of `op`), every price from [`units`].
    /// One execution's charge of request `r` of `op`. A read request after the first
    /// follows the first one's results: a point read (a reference each item holds)
    /// runs once per item the first returns; a query (their children stored
    /// elsewhere) runs once, for all of them, and returns their children.
    pub(crate) fn charge(&self, op: &Operation, r: &Request) -> Charge {
        self.charge_in(&self.operating(op), r, self.facts_of(&r.container))
    }

    /// The context [`Design::charge_in`] figures `op`'s requests in.
    fn operating<'o>(&self, op: &'o Operation) -> Operating<'o, 'm> {
        Operating {
            op,
            pattern: self.model.access_pattern(&op.pattern),
            first_items: OnceCell::new(),
            main_items: OnceCell::new(),
            start_count: OnceCell::new(),
        }
    }

    /// [`Design::charge`] of `r`, a request of `op.op`, whose container's facts are `c`.
    fn charge_in(&self, op: &Operating<'_, 'm>, r: &Request, c: Option<&facts::ContainerFacts>) -> Charge {
        let charge = self.charge_alone(op, r, c);
        // A rewrite a sync sends (a count, a subset, an extended reference, an ancestors
        // list) reaches each copy or feed of the document too, through the copy's own
        // sync from its change feed: one more write each, priced as this one.
        let synced = matches!(
            r.purpose,
            Purpose::UpdateCount { .. }
                | Purpose::UpdateSubset { .. }
                | Purpose::SyncExtendedReference { .. }
                | Purpose::SyncAncestors { .. }
        );
        let copies = r
            .document_types
            .first()
            .and_then(|d| c?.documents.get(d))
            .map_or(0, |d| d.copies);
        if synced && r.kind() == OperationKind::Write && copies > 0 {
            charge.scaled(1.0 + copies as f64)
        } else {
            charge
        }
    }

    /// [`Design::charge_in`] of `r` alone, without the copies its write reaches.
    fn charge_alone(&self, op: &Operating<'_, 'm>, r: &Request, c: Option<&facts::ContainerFacts>) -> Charge {
        let follows = op.op.requests.first().filter(|first| !std::ptr::eq(*first, r));
        let per_result = matches!(r.purpose, Purpose::Count { .. });
        let charge = match (follows, r.kind()) {
            (Some(first), OperationKind::PointRead) => self
                .charge_once(op, r, c, 1.0)
                .scaled(self.first_items(op, first) * self.references_per_item(op, r)),
            // A count per result: one small answer each time.
            (Some(first), _) if per_result => self.charge_once(op, r, c, 0.0).scaled(self.first_items(op, first)),
            // The rewrite of every document holding an extended reference to the target.
            (Some(_), OperationKind::Write) if matches!(r.purpose, Purpose::SyncExtendedReference { .. }) => {
                self.charge_once(op, r, c, 1.0).scaled(self.holders_per_target(r, c))
            }
            // The rewrite of every descendant: as many as an element has ancestors, on average.
            (Some(_), OperationKind::Write) if matches!(r.purpose, Purpose::SyncAncestors { .. }) => {
                self.charge_once(op, r, c, 1.0).scaled(self.typical_depth(r))
            }
            (Some(first), OperationKind::SinglePartitionQuery | OperationKind::CrossPartitionQuery) => {
                self.charge_once(op, r, c, self.first_items(op, first))
            }
            _ => self.charge_once(op, r, c, 1.0),
        };
        charge.scaled(self.members_written(op, r))
    }

    /// How many times write `r` is sent in one execution of `op`: once for each
    /// member of the pattern's start it writes (each ticket of an order: the
    /// relationship's `avg`, else `max`), else once. The naive port's own-container
    /// write of such a member counts the same (`operations::members`).
    fn members_written(&self, op: &Operating<'_, 'm>, r: &Request) -> f64 {
        match &r.purpose {
            Purpose::OwnContainer { element, write: true } => op
                .pattern
                .and_then(|p| crate::operations::members(self.model, p, element))
                .map_or(1.0, |e| e.typical),
            purpose => purpose.each().map_or(1.0, |e| e.typical),
        }
    }

    /// How many documents of `r`'s type refer to one target of its extended reference:
    /// their count (times a list's typical length) over the target's (`c`: its
    /// container's facts).
    fn holders_per_target(&self, r: &Request, c: Option<&facts::ContainerFacts>) -> f64 {
        let Purpose::SyncExtendedReference {
            target,
            document,
            reference,
        } = &r.purpose
        else {
            return 1.0;
        };
        let holders = r
            .document_types
            .first()
            .and_then(|d| c?.documents.get(d))
            .map_or(1.0, |d| d.count);
        // A list refers to as many targets as it typically holds.
        let per_holder = self
            .model
            .relationship_by_property(document, reference)
            .filter(|rel| rel.is_many())
            .and_then(|rel| rel.typical())
            .unwrap_or(1.0);
        holders * per_holder / facts::count_of(self.model, target).max(1.0)
    }

    /// The typical number of ancestors (the model's `depth`) of the tree `r` climbs
    /// or keeps; 1 when unknown.
    fn typical_depth(&self, r: &Request) -> f64 {
        let (element, reference) = match &r.purpose {
            Purpose::FollowAncestors { target, reference } => (target.as_str(), reference.as_str()),
            Purpose::SyncAncestors { element, reference, .. } => (element.as_str(), reference.as_str()),
            _ => return 1.0,
        };
        self.model
            .relationship_by_property(element, reference)
            .and_then(|rel| rel.depth)
            .map_or(1.0, |d| d.typical())
    }

    /// How many references each result holds for point read `r` to follow: a list's
    /// typical length (`avg`, else `max`), else one; an ancestor per level up a tree.
    fn references_per_item(&self, op: &Operating<'_, 'm>, r: &Request) -> f64 {
        if matches!(r.purpose, Purpose::FollowAncestors { .. }) {
            return self.typical_depth(r);
        }
        let Some(crate::operations::ValueSource::Property(path)) = r.id() else {
            return 1.0;
        };
        path.names()
            .first()
            .map_or(1.0, |property| self.list_length(op, property))
    }

    /// The typical length (`avg`, else `max`) of the start's list of references
    /// `property`; one when it is no list.
    fn list_length(&self, op: &Operating<'_, 'm>, property: &str) -> f64 {
        op.pattern
            .and_then(|pattern| self.model.relationship_by_property(&pattern.start, property))
            .filter(|rel| rel.is_many())
            .and_then(|rel| rel.typical())
            .unwrap_or(1.0)
    }

    /// The most items `op`'s main query returns in one execution: the pattern's
    /// `limit`, else one page (a `limit` beyond a page reads several).
    fn main_page(&self, op: &Operating<'_, 'm>) -> f64 {
        op.pattern.and_then(|p| p.limit).map_or(QUERY_PAGE_ITEMS, |n| n as f64)
    }

    /// How many items the first request of `op` returns (1 for a point read): figured
    /// once however many of the requests after it ask.
    fn first_items(&self, op: &Operating<'_, 'm>, first: &Request) -> f64 {
        *op.first_items.get_or_init(|| {
            let Some(container) = self
                .facts_of(&first.container)
                .filter(|_| !first.document_types.is_empty())
            else {
                return 1.0;
            };
            match first.kind() {
                OperationKind::SinglePartitionQuery | OperationKind::CrossPartitionQuery => {
                    self.main_items(op, container).min(self.main_page(op)).max(1.0)
                }
                _ => 1.0,
            }
        })
    }

    /// [`Design::items`] of the first document type of `op`'s main (first) request, in
    /// its container `c`: figured once, for the main request and those after it.
    fn main_items(&self, op: &Operating<'_, 'm>, c: &facts::ContainerFacts) -> f64 {
        *op.main_items.get_or_init(|| {
            let first = &op.op.requests[0];
            self.items(op, first, true, c.documents.get(&first.document_types[0]), c)
        })
    }

    /// The charge of one execution of `r`; a query after the first returns the
    /// children of `parents` items. `c`: the facts of its container (none when not in
    /// this design).
    fn charge_once(
        &self,
        op: &Operating<'_, 'm>,
        r: &Request,
        c: Option<&facts::ContainerFacts>,
        parents: f64,
    ) -> Charge {
        let Some(container) = c else {
            return Charge::default();
        };
        let doc = |name: &str| container.documents.get(name);
        let bytes = |d: Option<&DocFacts>| d.map_or(DEFAULT_ITEM_BYTES, |d| d.bytes);
        let read = self.consistency.read_factor();
        match r.kind() {
            OperationKind::PointRead => Charge::once(units::point_read(bytes(doc(&r.document_types[0])))).scaled(read),
            OperationKind::Write => write_charge(r, doc(&r.document_types[0])),
            kind @ (OperationKind::SinglePartitionQuery | OperationKind::CrossPartitionQuery) => {
                self.query_charge(op, r, container, kind, parents)
            }
        }
    }

    /// The charge of one execution of query `r` (of `kind`) in `container`; a query after
    /// the first returns the children of `parents` items.
    fn query_charge(
        &self,
        op: &Operating<'_, 'm>,
        r: &Request,
        container: &facts::ContainerFacts,
        kind: OperationKind,
        parents: f64,
    ) -> Charge {
        let doc = |name: &str| container.documents.get(name);
        let bytes = |d: Option<&DocFacts>| d.map_or(DEFAULT_ITEM_BYTES, |d| d.bytes);
        let read = self.consistency.read_factor();
        let main = op.op.requests.first().is_some_and(|first| std::ptr::eq(first, r));
        // What the main query needs: its `limit`, else one page; a query after
        // it, all it finds (page after page).
        let page = if main { self.main_page(op) } else { f64::INFINITY };
        // Buckets: as many as hold what the read needs, and one more at the edge.
        let page = match (&r.purpose, bucket_items(r, container)) {
            (Purpose::ReadBuckets { .. }, Some(per_bucket)) => (page / per_bucket).ceil() + 1.0,
            _ => page,
        };
        // A short form (`project`) returns a share of each document, by its properties.
        let projected = op
            .pattern
            .map(|p| p.project.len())
            .filter(|&n| main && n > 0 && r.selects_short_form());
        let bytes = |d: Option<&DocFacts>| match (projected, d) {
            (Some(n), Some(d)) => d.bytes * ((n + 3) as f64 / (d.properties + 3) as f64).min(1.0),
            _ => bytes(d),
        };
        let returned: Vec<(f64, f64)> = r
            .document_types
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let d = doc(name);
                let items = if main && i == 0 {
                    self.main_items(op, container)
                } else {
                    self.items(op, r, false, d, container)
                };
                let items = if main { items } else { items * parents }.min(page);
                // A count returns one number (across partitions, a `1` per match).
                if matches!(r.purpose, Purpose::Count { .. } | Purpose::UpdateCount { .. }) {
                    let n = if kind == OperationKind::CrossPartitionQuery {
                        items.max(1.0)
                    } else {
                        1.0
                    };
                    return (n, COUNT_RESULT_BYTES);
                }
                (items, bytes(d))
            })
            .collect();
        let cross = kind == OperationKind::CrossPartitionQuery;
        // Beyond a page, each further page pays the base again.
        let total: f64 = returned.iter().map(|(n, _)| n).sum();
        let more_pages = ((total / QUERY_PAGE_ITEMS).ceil() - 1.0).max(0.0);
        let paging = Charge::once(more_pages * units::further_page(read));
        paging.plus(match self.prefix_span(r, container) {
            // A prefix of a hierarchical key: the physical partitions holding it, at most all.
            Some(span) if span > 1.0 => {
                let fanned = units::query_under(read, true, &returned);
                Charge::once(fanned.at(span.min(self.partitions(&r.container))))
            }
            _ => units::query_under(read, cross, &returned),
        })
    }

    /// How many physical partitions a query given a prefix of a hierarchical key may
    /// check: those its largest prefix value's data fills; `None` for any other request.
    fn prefix_span(&self, r: &Request, c: &facts::ContainerFacts) -> Option<f64> {
        let given = match r.partition_key()? {
            crate::operations::ValueSource::Levels(given) if !c.prefixes.is_empty() => given.len(),
            _ => return None,
        };
        let (_, share) = c.values_of_prefix(given);
        Some(units::physical_partitions(c.storage_bytes * share, 0.0))
    }

    /// Items of a document type (`d`, its facts in container `c`) a query returns:
    /// each equality filter narrows them (see `ASSUMPTIONS`); the fewest wins.
    fn items(
        &self,
        op: &Operating<'_, 'm>,
        r: &Request,
        main: bool,
        d: Option<&DocFacts>,
        c: &facts::ContainerFacts,
    ) -> f64 {
        // The targets of a list: as many as it typically holds, per result (in the naive
        // port, the rows of its own table that the start's list names).
        match &r.purpose {
            Purpose::ReadListed { reference, .. } => return self.list_length(op, reference),
            Purpose::OwnContainer { element, write: false } if !main => {
                let list = op.pattern.and_then(|p| {
                    self.model
                        .relationships_from(&p.start)
                        .find(|rel| rel.to == *element && rel.is_many())
                });
                if let Some(length) = list.and_then(|rel| rel.typical()) {
                    return length;
                }
            }
            _ => {}
        }
        let count = d.map_or(1.0, |d| d.count);
        // The logical partitions the key given selects (a prefix selects several).
        let given = match r.partition_key() {
            Some(crate::operations::ValueSource::Levels(given)) => given.len(),
            _ => usize::MAX,
        };
        let per_partition = count / c.values_of_prefix(given).0.max(1.0);
        let unfiltered = if r.partition_key().is_some() {
            per_partition
        } else {
            count
        };
        let Some(pattern) = op.pattern else {
            return unfiltered;
        };
        if !main {
            // Read alongside the main item: its children per parent.
            let parents = *op
                .start_count
                .get_or_init(|| facts::count_of(self.model, &pattern.start));
            let parents = parents.max(1.0);
            return (count / parents).min(unfiltered).max(count.min(1.0));
        }
        if pattern.filter.is_empty() {
            return unfiltered;
        }
        self.filtered(pattern, r, count, (unfiltered, per_partition))
    }

    /// Items of `pattern`'s start (`count`; `unfiltered` under the key given, `per_partition`
    /// in one logical partition) its filters leave for `r` (see [`Self::items`]).
    fn filtered(
        &self,
        pattern: &AccessPattern,
        r: &Request,
        count: f64,
        (unfiltered, per_partition): (f64, f64),
    ) -> f64 {
        let identity = match self.model.element(&pattern.start) {
            Some(Element::Entity(e)) => Some(e.identity.as_str()),
            _ => None,
        };
        let root = self.model.root_of(&pattern.start);
        // Equality filters: the most selective one bounds the answer; ranges keep a share of it.
        let (mut items, mut share) = (unfiltered, 1.0);
        for filter in pattern.filter.iter().filter_map(|f| Filter::parse(f)) {
            // A path (`author.userId`) is priced as the name it ends in.
            let f = filter.attribute.rsplit('.').next().unwrap_or(filter.attribute);
            let values = match filter.op {
                FilterOp::Less | FilterOp::LessOrEqual | FilterOp::Greater | FilterOp::GreaterOrEqual => {
                    share *= RANGE_FILTER_SHARE;
                    continue;
                }
                FilterOp::Between => {
                    share *= BETWEEN_FILTER_SHARE;
                    continue;
                }
                FilterOp::In => IN_FILTER_VALUES,
                FilterOp::Equal => 1.0,
            };
            let matched = if Some(f) == identity {
                1.0
            } else if key_parameter(r.partition_key(), f) {
                per_partition
            } else if let Some(root) = root.filter(|root| root.identity == *f) {
                count / facts::count_of(self.model, &root.name).max(1.0)
            } else if let Some(targets) = self.referenced_count(&pattern.start, filter.attribute) {
                count / targets.max(1.0)
            } else if let Some(distinct) = self.distinct_values(&pattern.start, f) {
                unfiltered / distinct as f64
            } else {
                SELECTIVE_FILTER_ITEMS
            };
            items = items.min(values * matched);
        }
        (items * share).max(count.min(1.0))
    }

    /// The declared number of different values of attribute `f` of `element`: an
    /// equality filter on it matches that share of the items.
    fn distinct_values(&self, element: &str, f: &str) -> Option<u64> {
        let attributes = self.model.element(element)?.attributes();
        attributes
            .iter()
            .find(|a| a.name == f)?
            .distinct_values
            .filter(|&d| d > 0)
    }

    /// The count of the root that filter `filter` (`sku`, or the path `account3.sku`) names the identity of, when `element` refers to it.
    fn referenced_count(&self, element: &str, filter: &str) -> Option<f64> {
        // A path (`account3.sku`) names the reference: its target, whatever else shares
        // the identity's name.
        if let Some((first, rest)) = filter.split_once('.') {
            let rel = self.model.relationship_by_property(element, first);
            if let Some(root) = rel
                .and_then(|rel| self.model.root_of(&rel.to))
                .filter(|root| root.identity == rest)
            {
                return Some(facts::count_of(self.model, &root.name));
            }
        }
        let f = filter.rsplit('.').next().unwrap_or(filter);
        // Else any root related to `element` with that identity: the first by name, so
        // the declaration order does not matter.
        self.model
            .relationships_touching(element)
            .filter_map(|rel| {
                let other = if rel.from == element {
                    &rel.to
                } else if rel.to == element {
                    &rel.from
                } else {
                    return None;
                };
                let root = self.model.root_of(other)?;
                (root.identity == f).then_some(root)
            })
            .min_by(|a, b| a.name.cmp(&b.name))
            .map(|root| facts::count_of(self.model, &root.name))
    }

    /// Risks of this design: logical partitions over their limits, items near 2 MB,
    /// frequent cross-partition queries.
    pub(crate) fn warnings(
        &self,
        containers: &[Container],
        operations: &[Operation],
        t: &Thresholds,
        stats: &Statistics,
    ) -> Vec<String> {
        let mut out = Vec::new();
        let years = t.growth_years;
        // The containers by name (the first of a name), looked up once per container.
        let mut by_name: BTreeMap<&str, &Container> = BTreeMap::new();
        for c in containers {
            by_name.entry(c.name.as_str()).or_insert(c);
        }
        for (name, c) in &self.facts {
            let (f, rus) = (&c.facts, c.ru_per_second);
            let container = by_name.get(name.as_str()).copied();
            if f.dictionary {
                for (doc, d) in &f.documents {
                    let source = container
                        .and_then(|c| c.document_type(doc))
                        .map_or(doc.as_str(), |d| d.source.as_str());
                    let ttl = container.and_then(|c| c.default_ttl);
                    let bytes = facts::count_after(self.model, stats, source, ttl, years) * d.bytes;
                    if bytes > LOGICAL_PARTITION_BYTES {
                        out.push(format!("`{name}`: the `{doc}` dictionary (one logical partition) would hold about {} after {years} years, over the 20 GB a logical partition can hold", human_bytes(bytes)));
                    }
                }
                if rus > LOGICAL_PARTITION_RU_PER_SECOND && rus.is_finite() {
                    out.push(format!("`{name}`: about {} RU/s go to its dictionaries' logical partitions, over the 10,000 RU/s one can serve", rus.round()));
                }
                continue;
            }
            let largest = container.map_or(f.storage_bytes * f.largest_partition_share, |c| {
                facts::largest_partition_after(self.model, stats, c, f, years)
            });
            if largest > LOGICAL_PARTITION_BYTES {
                out.push(format!(
                    "`{name}`: its largest logical partition would hold about {} after {years} years, over the 20 GB limit",
                    human_bytes(largest)
                ));
            }
            if !rus.is_finite() {
                out.push(format!("`{name}`: its cross-partition queries fan out faster than partitions add throughput; the container cannot carry this workload"));
                continue;
            }
            if let Some(warning) = fan_out_warning(name, c) {
                out.push(warning);
            }
            let hot = rus * f.largest_partition_share;
            if hot > LOGICAL_PARTITION_RU_PER_SECOND {
                out.push(format!(
                    "`{name}`: about {} RU/s go to its busiest logical partition, over the 10,000 RU/s one can serve",
                    hot.round()
                ));
            }
            for (doc, d) in &f.documents {
                if d.bytes > MAX_ITEM_BYTES / 2.0 {
                    out.push(format!(
                        "`{name}`/`{doc}`: items of about {} are near the 2 MB item limit",
                        human_bytes(d.bytes)
                    ));
                }
            }
        }
        for op in operations {
            if op.kind == OperationKind::CrossPartitionQuery && op.per_second >= t.frequent_per_second {
                out.push(format!(
                    "`{}` runs {} as a cross-partition query on `{}`",
                    op.pattern,
                    human_rate(op.per_second),
                    op.requests.first().map_or("?", |r| r.container.as_str())
                ));
            }
        }
        out
    }
}

/// What the charges of one operation's requests share, each figured at most once:
/// its access pattern, how many items its main request returns, and its start's count.
struct Operating<'o, 'm> {
    op: &'o Operation,
    /// `op`'s access pattern, looked up once.
    pattern: Option<&'m AccessPattern>,
    /// [`Design::first_items`], once asked.
    first_items: OnceCell<f64>,
    /// [`Design::main_items`], once asked.
    main_items: OnceCell<f64>,
    /// [`facts::count_of`] the pattern's start, once asked.
    start_count: OnceCell<f64>,
}

/// One container's figures in a design, as the cost report shows them.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainerFigures {
    /// The container.
    pub name: String,
    /// Estimated items (documents) it holds.
    pub items: f64,
    /// Estimated storage in bytes.
    pub storage_bytes: f64,
    /// Distinct partition key values.
    pub logical_partitions: f64,
    /// Physical partitions it will have: max(its storage after `growth_years` / 50 GB,
    /// its provisioned throughput / 10,000 RU/s). Every decision and price uses this.
    pub physical_partitions: f64,
    /// Request units per second its share of the workload takes.
    pub ru_per_second: f64,
    /// Storage in bytes after `growth_years` (partitions split as data grows, and do
    /// not merge back).
    pub grown_storage_bytes: f64,
    /// The years of growth `grown_storage_bytes` is taken after (`thresholds.growthYears`).
    pub growth_years: f64,
    /// Physical partitions its grown storage alone needs.
    pub partitions_by_storage: f64,
    /// The provisioned throughput its partitions follow, and where it came from.
    pub throughput: Provisioned,
}

impl ContainerFigures {
    /// Where its physical partitions come from, in words: "3 physical partitions: 1 for
    /// its storage after 5 years (12.0 GB), 3 for 30,000 RU/s provisioned on each
    /// container (manual, thresholds.throughput)".
    pub fn partitions_reason(&self) -> String {
        let count = |n: f64| {
            if n.is_finite() {
                format!("{n}")
            } else {
                "unbounded".to_string()
            }
        };
        let plural = if self.physical_partitions == 1.0 { "" } else { "s" };
        let by_throughput = units::physical_partitions(0.0, self.throughput.ru_per_second);
        format!(
            "{} physical partition{plural}: {} for its storage after {} years ({}), {} for {}",
            count(self.physical_partitions),
            count(self.partitions_by_storage),
            self.growth_years,
            human_bytes(self.grown_storage_bytes),
            count(by_throughput),
            self.throughput.describe()
        )
    }
}

/// A warning when a container's partitions follow its own load and its
/// cross-partition queries add so much per partition that each partition carries less
/// than twice the fan-out it brings: its partition count (and every price at it) then
/// grows out of proportion with the load — to `partitions` where storage needs far
/// fewer — and a small change of rates moves it a lot.
fn fan_out_warning(name: &str, c: &ContainerFigured) -> Option<String> {
    let per_partition = c.fan_out * c.throughput.headroom;
    let by_storage = units::physical_partitions(c.facts.grown_storage_bytes, 0.0);
    let amplified = per_partition * 2.0 >= PHYSICAL_PARTITION_RU_PER_SECOND;
    (c.throughput.source == ThroughputSource::OwnLoad && amplified && c.partitions > by_storage).then(|| {
        format!(
            "`{name}`: its cross-partition queries add about {} RU/s per physical partition, half or more of what one serves, so its own load needs {} partitions where its storage needs {}: the figures at that count are fragile; keep those queries in one partition (a partition key or a copy), or give `thresholds.throughput`",
            human_count(c.fan_out.round()),
            human_count(c.partitions),
            human_count(by_storage)
        )
    })
}

/// The charge of one write `r` of document `d` (an append rewrites its bucket, half
/// full on average; a create in a feed also deletes its oldest item).
fn write_charge(r: &Request, d: Option<&DocFacts>) -> Charge {
    let (mut b, paths) = d.map_or((DEFAULT_ITEM_BYTES, 0), |d| (d.bytes, d.indexed_paths));
    if matches!(r.purpose, Purpose::AppendToBucket { .. }) {
        b /= 2.0;
    }
    let write = r.write().map_or(0.0, |kind| units::write(kind, b, paths));
    let trims = matches!(r.purpose, Purpose::SyncFeed { .. }) && r.write() == Some(WriteKind::Create);
    let trim = if trims {
        units::write(WriteKind::Delete, b, paths)
    } else {
        0.0
    };
    Charge::once(write + trim)
}

/// The typical number of children each bucket `r` reads holds (`bucket`), in its
/// container `c`.
fn bucket_items(r: &Request, c: &facts::ContainerFacts) -> Option<f64> {
    let Purpose::ReadBuckets { document, .. } = &r.purpose else {
        return None;
    };
    c.documents.get(document)?.bucket_items
}

/// Whether the partition key `key` binds parameter `f` (itself or one of its levels).
fn key_parameter(key: Option<&crate::operations::ValueSource>, f: &str) -> bool {
    use crate::operations::ValueSource;
    match key {
        Some(ValueSource::Parameter(p)) => p == f,
        Some(ValueSource::Levels(levels)) => levels.iter().any(|l| matches!(l, ValueSource::Parameter(p) if p == f)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each request of `operations` figured afresh by [`Design::request_ru`].
    fn afresh(design: &Design<'_>, operations: &[Operation]) -> Vec<Vec<f64>> {
        operations
            .iter()
            .map(|op| op.requests.iter().map(|r| design.request_ru(op, r)).collect())
            .collect()
    }

    /// The charges a design keeps from its making give each request the RU it gives
    /// figured afresh, hierarchical keys' prefix queries included; operations it was
    /// not made with are figured afresh.
    #[test]
    fn request_rus_are_each_request_figured_afresh() {
        let models = [
            include_str!("../../../../examples/help-desk/model.json").to_string(),
            cosmap_domain::synthetic::json(40),
        ];
        for text in models {
            let model = cosmap_domain::from_slice(text.as_bytes(), None).expect("a valid model");
            let logical = crate::map(&model, &crate::Options::default());
            let operations = &logical.operations;
            let design = design_for(&model, &logical);
            assert_eq!(design.request_rus(operations), afresh(&design, operations));
            let fewer = &operations[..operations.len() / 2];
            assert_eq!(design.request_rus(fewer), afresh(&design, fewer));
            // A charge that depends on the partition counts is figured afresh.
            let mut design = design;
            let stored = design.charges.iter_mut().flatten();
            stored.step_by(3).for_each(|c| c.charge = None);
            assert_eq!(design.request_rus(operations), afresh(&design, operations));
        }
    }

    /// `logical`'s design at the default consistency.
    fn design_for<'m>(model: &'m DomainModel, logical: &'m crate::LogicalModel) -> Design<'m> {
        Design::new(
            model,
            facts::of_containers(model, &logical.containers),
            &logical.operations,
            Consistency::default(),
        )
    }

    /// A different list of operations with as many requests as the design was made
    /// with (the same operations in reverse; one operation's requests swapped for
    /// another's) is priced afresh, never with the charges stored at its places.
    #[test]
    fn a_different_list_of_the_same_length_is_priced_afresh() {
        let text = include_str!("../../../../examples/help-desk/model.json");
        let model = cosmap_domain::from_slice(text.as_bytes(), None).expect("a valid model");
        let logical = crate::map(&model, &crate::Options::default());
        let operations = &logical.operations;
        let design = design_for(&model, &logical);
        let made_with = afresh(&design, operations);
        let reversed: Vec<Operation> = operations.iter().rev().cloned().collect();
        // By position, the reversed list's requests would take other requests' charges.
        assert_ne!(afresh(&design, &reversed).concat(), made_with.concat());
        assert_eq!(design.request_rus(&reversed), afresh(&design, &reversed));
        // The same pattern at each place, one with another operation's requests.
        let (a, b) = (0..operations.len())
            .flat_map(|a| (0..operations.len()).map(move |b| (a, b)))
            .find(|&(a, b)| made_with[a].len() == made_with[b].len() && made_with[a] != made_with[b])
            .expect("two operations with as many requests and other charges");
        let mut swapped = operations.clone();
        swapped[a].requests = operations[b].requests.clone();
        assert_ne!(afresh(&design, &swapped)[a], made_with[a]);
        assert_eq!(design.request_rus(&swapped), afresh(&design, &swapped));
    }
}
