//! # cosmap-mapper
//!
//! The second stage of cosmap's flow: **`DomainModel` → `LogicalModel`**.
//!
//! [`map`] applies the mapping rules MR1–MR6 (containers, partition keys,
//! document types, embedding, dictionaries, references) and then the physical
//! optimisations driven by access-pattern statistics (copies into the container
//! a hot query filters by; embedded never-changing reference data). Every
//! decision is recorded with its rule and evidence in [`LogicalModel::decisions`].
//! The function is pure and deterministic: the same model gives the same logical
//! model whatever the declaration order. Rendering (`cosmap-codegen`) and
//! provisioning (`cosmap-provision`) consume its output.

#![warn(missing_docs)]

mod assemble;
pub mod cost;
mod decision;
mod logical_model;
pub mod operations;
mod optimise;
mod options;
mod overrides;
mod physical;
mod rules;
mod statistics;
mod sync_plan;

pub use decision::{Decision, Evidence, Rule};
pub use logical_model::{
    Ancestry, BucketOf, BucketWindow, ClaimOf, ComputedValue, Container, ContainerKind, Containment, CopyOf,
    DocumentType, DocumentTypes, Embedded, EmbeddedKind, ExtendedReference, IdSource, Keeping, LogicalModel,
    ParentLink, PartitionKey, PartitionKeyValue, Property, PropertyHolder, Reference, Role, FORMAT_VERSION,
};
pub use optimise::search::SearchStep;
pub use options::{
    Options, Thresholds, LOGICAL_PARTITION_BYTES, LOGICAL_PARTITION_RU_PER_SECOND, MAX_ITEM_BYTES,
    PHYSICAL_PARTITION_BYTES,
};
pub use overrides::overridden_by;
pub use physical::{CompositePath, ContainerDefinition, IndexPath, IndexingPolicy, UniqueKey, UniqueKeyPolicy};
pub use statistics::{human_bytes, human_count, human_rate, human_ru_per_second, human_share};
pub use sync_plan::{ChangeKind, KeyMapping, SyncAction, SyncOperation, SyncPlan, SyncTrigger};

use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::Arc;

use cosmap_domain::DomainModel;
use optimise::bucket::Buckets;
use optimise::computed_value::ComputedValues;
use optimise::extended_reference::ExtendedReferences;
use optimise::rounds::Step;
use optimise::subset::Subsets;
use optimise::tree_ancestors::TreeAncestors;

/// Maps a validated domain model to a Cosmos DB logical model.
pub fn map(model: &DomainModel, options: &Options) -> LogicalModel {
    complete(model, options, Assembled::of(model, options), false).logical
}

/// The first design the optimised map finishes: MR1–MR6's containers as assembled,
/// finished, with their operations. It is the rules-only map's design, shared (not
/// copied) with the priced design made of it.
pub(crate) type FirstFinished = (Arc<Vec<Container>>, Arc<Vec<operations::Operation>>);

/// MR1–MR6's design, as the cost table compares the optimised one with it.
pub(crate) enum RulesDesign {
    /// The optimised map left it as it was: it is the optimised design.
    Optimised,
    /// Its finished containers and their operations.
    Own(Vec<Container>, Vec<operations::Operation>),
}

impl RulesDesign {
    /// The first design finished, taken from the map (copied only should a priced
    /// design still hold it).
    fn own((containers, operations): FirstFinished) -> Self {
        RulesDesign::Own(Arc::unwrap_or_clone(containers), Arc::unwrap_or_clone(operations))
    }
}

/// What [`complete`] makes of an assembled design: its map, MR1–MR6's design as the
/// map found it (see [`map_for_cost`]; `None` only should the optimised map not
/// have finished the assembled design), and the statistics it was weighed with.
struct Completed {
    logical: LogicalModel,
    rules: Option<RulesDesign>,
    stats: statistics::Statistics,
    /// The workload after each step of the search (empty when not optimised).
    search: Vec<optimise::search::SearchStep>,
}

/// What the cost table needs of the maps (see [`map_for_cost`]).
pub(crate) struct ForCost {
    /// The map with `options` as given (optimised unless they say otherwise).
    pub(crate) optimised: LogicalModel,
    /// MR1–MR6's design.
    pub(crate) rules: RulesDesign,
    /// The model's statistics, as the map figured them.
    pub(crate) stats: statistics::Statistics,
    /// The workload after each step of the search.
    pub(crate) search: Vec<optimise::search::SearchStep>,
}

impl ForCost {
    /// MR1–MR6's containers and operations.
    pub(crate) fn rules_side(&self) -> (&[Container], &[operations::Operation]) {
        match &self.rules {
            RulesDesign::Optimised => (&self.optimised.containers, &self.optimised.operations),
            RulesDesign::Own(containers, operations) => (containers, operations),
        }
    }
}

/// Maps `model` with `options` and gives MR1–MR6's design beside it, as the cost
/// table needs them: the optimised map finishes the assembled design first (the
/// design every optimisation is weighed against), and that is the rules-only
/// design, so it is taken from there instead of being mapped again. Its decisions
/// are not recorded: the cost table reads its containers and operations alone.
pub(crate) fn map_for_cost(model: &DomainModel, options: &Options) -> ForCost {
    let Completed {
        logical,
        rules,
        stats,
        search,
    } = complete(model, options, Assembled::of(model, options), true);
    // Found on every path of the optimised map (each finishes the assembled design);
    // mapped again should one ever not.
    let rules = rules.unwrap_or_else(|| {
        let rules_options = options.clone().optimise(false);
        let rules = map(model, &rules_options);
        RulesDesign::Own(rules.containers, rules.operations)
    });
    ForCost {
        optimised: logical,
        rules,
        stats,
        search,
    }
}

/// What MR1–MR6 make of a model before anything is optimised or finished: the same
/// whether the map optimises or not, so [`map_both`] assembles it once for both.
struct Assembled {
    thresholds: Thresholds,
    stats: statistics::Statistics,
    trace: decision::Trace,
    /// Shared (not copied) with the rules-only map: a map that changes it replaces it.
    containers: Arc<Vec<Container>>,
}

impl Assembled {
    /// The containers MR1–MR6 plan and assemble, with their decisions. Reads no
    /// option but the thresholds and the dictionary container's name.
    fn of(model: &DomainModel, options: &Options) -> Self {
        let thresholds = Thresholds::default()
            .with(&model.thresholds())
            .with(&options.thresholds);
        let stats = statistics::Statistics::new(model);
        let (mut trace, plans) = Self::planned(model);
        let plans = rules::mr5_dictionaries::share(
            model,
            &thresholds,
            &stats,
            &options.dictionary_container,
            plans,
            &mut trace,
        );
        let containers = assemble::all(model, &thresholds, &stats, &plans, &mut trace);
        Assembled {
            thresholds,
            stats,
            trace,
            containers: Arc::new(containers),
        }
    }

    /// The containers MR1 plans and MR2 partitions, with their decisions.
    fn planned(model: &DomainModel) -> (decision::Trace, Vec<rules::ContainerPlan<'_>>) {
        let mut trace = decision::Trace::default();
        let mut plans = rules::mr1_containers::containers(model, &mut trace);
        rules::mr2_partition_keys::partition(model, &mut plans, &mut trace);
        (trace, plans)
    }

    /// The rules-only map's share: its containers and decisions so far (it needs
    /// no statistics to be finished).
    fn for_rules_only(&self) -> Assembled {
        Assembled {
            thresholds: self.thresholds,
            stats: statistics::Statistics::default(),
            trace: self.trace.clone(),
            containers: Arc::clone(&self.containers),
        }
    }
}

/// The map of `assembled`: optimised when `options` say so, then finished.
///
/// Also returns MR1–MR6's design as this map found it when `keep_rules` asks for it
/// (the cost table's; else it is let go once weighed), and the statistics. The
/// cost table's map, which holds that design anyway, also holds whole the design
/// the partition keys and snapshots are weighed against; [`map`] holds its figures
/// alone while it weighs them, and prices it again should it stay.
fn complete(model: &DomainModel, options: &Options, assembled: Assembled, keep_rules: bool) -> Completed {
    let Assembled {
        thresholds,
        stats,
        mut trace,
        mut containers,
    } = assembled;
    if !options.optimise {
        return Completed {
            logical: finished(model, options, thresholds, Arc::unwrap_or_clone(containers), trace),
            rules: Some(RulesDesign::Optimised),
            stats,
            search: Vec::new(),
        };
    }
    let weighing = Weighing {
        model,
        options,
        thresholds: &thresholds,
        stats: &stats,
        keep_rules,
    };
    let mut search = optimise::search::Search::default();
    let (priced, first) = weighing.keys_and_copies(&mut containers, &mut trace);
    search.after("partition keys and copies", &[Rule::PartitionKey, Rule::Copy], &priced);
    let priced = weighing.feeds(&mut containers, &mut trace, priced);
    search.after("feeds", &[Rule::Feed], &priced);
    // The design the partition keys, copies and feeds left, priced, is the one the
    // snapshots are weighed against. Each step below is given the design as the steps
    // before left it, priced when one of them priced it, and gives back the design it
    // leaves, priced when it priced it: a design no step changed is never finished and
    // priced twice.
    let price = |candidate: &[Container]| weighing.price(candidate);
    let priced = optimise::embed_reference_data::apply(model, &mut containers, &mut trace, &price, priced, keep_rules);
    search.after("embedded reference data", &[Rule::EmbedReferenceData], &priced);
    let priced = weighing.rounds(&mut containers, &mut trace, priced, &mut search);
    // A copy or feed a later step left without a read is dropped.
    let priced = optimise::unused_copies::drop_unused(model, &mut containers, &mut trace, &price, priced);
    search.after("copies and feeds nothing reads, dropped", &[], &priced);
    // A pin that no optimisation answered is said, never passed over.
    optimise::pins::record_unanswered(model, &mut trace);
    let (logical, rules) = match priced {
        Some(priced) => left(model, thresholds, priced, trace, first),
        None => (
            finished(model, options, thresholds, Arc::unwrap_or_clone(containers), trace),
            first.map(RulesDesign::own),
        ),
    };
    Completed {
        logical,
        rules,
        stats,
        search: search.finish(),
    }
}

/// The map the optimised search leaves: the last design priced, finished already (its
/// containers, operations and the decisions finishing them recorded), with MR1–MR6's
/// design — `first`, unless it is the one the map leaves (then let go first, so the
/// map takes it without a copy).
fn left(
    model: &DomainModel,
    thresholds: Thresholds,
    priced: optimise::Priced,
    mut trace: decision::Trace,
    first: Option<FirstFinished>,
) -> (LogicalModel, Option<RulesDesign>) {
    trace.append(priced.finished);
    let same = first.as_ref().is_some_and(|(containers, operations)| {
        Arc::ptr_eq(containers, &priced.containers) && Arc::ptr_eq(operations, &priced.operations)
    });
    let rules = if same {
        drop(first);
        Some(RulesDesign::Optimised)
    } else {
        first.map(RulesDesign::own)
    };
    let logical = LogicalModel {
        format_version: FORMAT_VERSION,
        model: model.name().to_string(),
        thresholds,
        containers: Arc::unwrap_or_clone(priced.containers),
        operations: Arc::unwrap_or_clone(priced.operations),
        decisions: trace.finish(),
    };
    (logical, rules)
}

/// What the optimised map weighs with: the model, the options, the thresholds and the
/// statistics. Each optimisation is weighed on the design as the ones before left it,
/// finished and priced the way the cost table prices it.
struct Weighing<'a> {
    model: &'a DomainModel,
    options: &'a Options,
    thresholds: &'a Thresholds,
    stats: &'a statistics::Statistics,
    /// Whether the first design finished (MR1–MR6's) is kept for the cost table.
    keep_rules: bool,
}

impl Weighing<'_> {
    /// `candidate` finished and priced (see [`price`]).
    fn price(&self, candidate: &[Container]) -> optimise::Priced {
        price(self.model, self.options, candidate)
    }

    /// The partition keys, each design weighed with the copies it would then get (so a
    /// key never displaces a copy that serves the same reads for less), and the copies
    /// of the design they leave: that design, priced, and the first design finished.
    fn keys_and_copies(
        &self,
        containers: &mut Arc<Vec<Container>>,
        trace: &mut decision::Trace,
    ) -> (Option<optimise::Priced>, Option<FirstFinished>) {
        let (model, options, stats) = (self.model, self.options, self.stats);
        // Each design weighed with its copies, with the copies made and the decisions
        // recorded, in the order weighed (see `weigh_with_copies`).
        let weighed_copies = RefCell::new(Weighings {
            list: Vec::new(),
            first: None,
            keep_first: self.keep_rules,
        });
        let with_copies =
            |candidate: &[Container]| weigh_with_copies(model, options, stats, &weighed_copies, candidate);
        let keys = (self.thresholds, stats);
        let priced = optimise::partition_key::apply(model, keys, containers, trace, &with_copies, self.keep_rules);
        // The design the partition keys left was weighed with its copies: take them.
        let weighing = priced.as_ref().and_then(|p| p.weighing);
        let Weighings {
            list: mut weighed,
            mut first,
            ..
        } = weighed_copies.into_inner();
        let taken = weighing.and_then(|i| (i < weighed.len()).then(|| weighed.swap_remove(i)));
        drop(weighed);
        if let Some(weighed) = taken {
            if let Some(after) = weighed.after {
                *containers = Arc::new(after);
            }
            trace.append(weighed.trace);
            return (priced, first);
        }
        let mut design = Cow::Borrowed(&containers[..]);
        let (_, priced, finished) = copies(model, options, stats, &mut design, trace);
        // The assembled design, when the partition keys priced none.
        if self.keep_rules {
            first.get_or_insert(finished);
        }
        if let Cow::Owned(design) = design {
            *containers = Arc::new(design);
        }
        (Some(priced), first)
    }

    /// The feeds that pay on `containers` (priced as `priced` when a step before priced it).
    fn feeds(
        &self,
        containers: &mut Arc<Vec<Container>>,
        trace: &mut decision::Trace,
        priced: Option<optimise::Priced>,
    ) -> Option<optimise::Priced> {
        let name = &self.options.feeds_container;
        let price = |candidate: &[Container]| self.price(candidate);
        optimise::feed::apply(self.model, self.thresholds, name, containers, trace, &price, priced)
    }

    /// The derived data reads ask for, each kept where it pays, weighed in rounds until
    /// a round changes nothing (see `optimise::rounds`), with the copies and feeds a
    /// step before refused: what one step makes can make another's candidate pay (a
    /// count kept on a source makes the read a copy serves carryable; the copy then
    /// carries the count).
    fn rounds(
        &self,
        containers: &mut Arc<Vec<Container>>,
        trace: &mut decision::Trace,
        priced: Option<optimise::Priced>,
        search: &mut optimise::search::Search,
    ) -> Option<optimise::Priced> {
        let (model, thresholds, stats) = (self.model, self.thresholds, self.stats);
        let price = |candidate: &[Container]| self.price(candidate);
        let mut steps = [
            // What reads still take through references, stored beside them.
            Step::derived("extended references", ExtendedReferences { model }, model, &price),
            // The counts reads ask for, kept on their parents.
            Step::derived("computed counts", ComputedValues { model }, model, &price),
            // The newest children reads take, kept in their parents.
            Step::derived("subsets", Subsets { model, thresholds }, model, &price),
            // The path to the root reads of a tree take, kept on each element.
            Step::derived("tree ancestors", TreeAncestors { model }, model, &price),
            // Many small children read by time, kept together in buckets.
            Step::derived("buckets", Buckets { model, stats }, model, &price),
            // The copies and feeds a step before refused, weighed on this design.
            Step::new(
                "copies, weighed again",
                &[Rule::Copy],
                |containers, trace, priced, _, _| copies_again(model, self.options, stats, containers, trace, priced),
            ),
            Step::new(
                "feeds, weighed again",
                &[Rule::Feed],
                |containers, trace, priced, _, _| {
                    optimise::feed::again(trace, priced, |again, priced| self.feeds(containers, again, priced))
                },
            ),
        ];
        optimise::rounds::run(
            &mut steps,
            containers,
            trace,
            priced,
            search,
            thresholds.decision_margin,
        )
    }
}

/// The logical model of `containers`, finished, with the decisions `trace` holds.
fn finished(
    model: &DomainModel,
    options: &Options,
    thresholds: Thresholds,
    containers: Vec<Container>,
    mut trace: decision::Trace,
) -> LogicalModel {
    let (containers, operations) = finish(model, options, containers, &mut trace);
    LogicalModel {
        format_version: FORMAT_VERSION,
        model: model.name().to_string(),
        thresholds,
        containers,
        operations,
        decisions: trace.finish(),
    }
}

/// Maps `model` both ways the cost table compares: with the optimisations off (MR1–MR6
/// alone) and with `options` as given (optimised unless they say otherwise); returns
/// `(rules_only, optimised)`. MR1–MR6 plan and assemble the containers once for
/// both; each is the same as [`map`] gives.
pub fn map_both(model: &DomainModel, options: &Options) -> (LogicalModel, LogicalModel) {
    let rules_options = options.clone().optimise(false);
    // Both maps start from the same assembled containers.
    let assembled = Assembled::of(model, options);
    let rules_only = assembled.for_rules_only();
    (
        complete(model, &rules_options, rules_only, false).logical,
        complete(model, options, assembled, false).logical,
    )
}

/// The `type` discriminator value of a document type: its name in lowerCamelCase.
pub fn discriminator(name: &str) -> String {
    cosmap_domain::naming::lower_camel(name)
}

/// A design weighed with its copies: the containers after (when a copy was made or
/// widened) and the decisions the weighing recorded.
struct WeighedCopies {
    after: Option<Vec<Container>>,
    trace: decision::Trace,
}

/// The map's weighings with copies, in the order weighed, and the first design they
/// finished (the assembled one: see [`FirstFinished`]) when `keep_first` asks for it.
struct Weighings {
    list: Vec<WeighedCopies>,
    first: Option<FirstFinished>,
    keep_first: bool,
}

/// `candidate` weighed with its copies (see [`copies`]) and priced, with the copies
/// made and the decisions recorded pushed onto `weighed` (its `Priced::weighing` says
/// which): the partition keys weigh each design so, and the design they leave takes
/// its copies from there instead of being weighed again.
fn weigh_with_copies(
    model: &DomainModel,
    options: &Options,
    stats: &statistics::Statistics,
    weighed: &RefCell<Weighings>,
    candidate: &[Container],
) -> optimise::Priced {
    // Cloned only when a copy is made.
    let mut candidate = Cow::Borrowed(candidate);
    let mut copy_trace = decision::Trace::default();
    let (changed, mut priced, finished) = copies(model, options, stats, &mut candidate, &mut copy_trace);
    let mut weighings = weighed.borrow_mut();
    if weighings.keep_first {
        weighings.first.get_or_insert(finished);
    }
    let weighing = weighings.list.len();
    weighings.list.push(WeighedCopies {
        // With copies, the design they left; without, the design as finished for them.
        after: changed.then(|| candidate.into_owned()),
        trace: copy_trace,
    });
    drop(weighings);
    priced.weighing = Some(weighing);
    priced
}

/// Adds the copies a cross-partition read needs, each weighed on
/// `containers`' own figures (finished and priced as the cost table prices them),
/// and keeps them only if the design with them also costs less as a whole (else none,
/// each refusal saying so). Returns whether a copy was added or widened, the design it
/// leaves, priced, and the finished design the copies were weighed on (shared with
/// the priced one when no copy is kept).
fn copies(
    model: &DomainModel,
    options: &Options,
    stats: &statistics::Statistics,
    containers: &mut Cow<'_, [Container]>,
    trace: &mut decision::Trace,
) -> (bool, optimise::Priced, FirstFinished) {
    let mut finished_trace = decision::Trace::default();
    let (finished, operations) = finish(model, options, containers.to_vec(), &mut finished_trace);
    let facts = cost::facts::of_containers(model, &finished);
    let shared: FirstFinished = (Arc::new(finished), Arc::new(operations));
    let (finished, operations) = (Arc::clone(&shared.0), Arc::clone(&shared.1));
    let made_with = Arc::clone(&operations);
    let design = cost::design::Design::new(model, facts, &made_with, cost::Consistency::default());
    let before = containers.clone();
    let mut made = decision::Trace::default();
    let considered = optimise::copy::Considered::Every;
    let changed = optimise::copy::apply(model, stats, &design, containers, &mut made, considered);
    let design_priced = optimise::Priced::of(finished, operations, &design);
    if !changed {
        trace.append(made);
        return (false, design_priced.with_finished(finished_trace), shared);
    }
    // Each copy was weighed on its own reads and writes; the design with them must
    // also cost less as a whole (a copy grows its target, whose other queries may then
    // fan out over more partitions), or none is kept.
    let with = price(model, options, containers);
    if with.cheaper_than(&design_priced) {
        trace.append(made);
        return (true, with, shared);
    }
    *containers = before;
    // Fewer copies, one dropped at a time, may cost less than none.
    let weighing = CopyWeighing {
        model,
        options,
        stats,
        design: &design,
    };
    if let Some((fewer, priced, decisions)) = weighing.fewer(&containers[..], &made, &with, &design_priced) {
        *containers = Cow::Owned(fewer);
        trace.append(decisions);
        return (true, priced, shared);
    }
    // What the model pins `keep` is made all the same, alone.
    let mut pinned = decision::Trace::default();
    let considered = optimise::copy::Considered::Pinned;
    let pinned_changed = optimise::copy::apply(model, stats, &design, containers, &mut pinned, considered);
    let made = refused_beside_others(&made, &BTreeSet::new(), &with, &design_priced);
    trace.append(made);
    trace.append(pinned);
    if pinned_changed {
        return (true, price(model, options, containers), shared);
    }
    (false, design_priced.with_finished(finished_trace), shared)
}

/// What the copy step weighs with: the model, the options, its statistics and the
/// figures of the design the copies are weighed on.
struct CopyWeighing<'a> {
    model: &'a DomainModel,
    options: &'a Options,
    stats: &'a statistics::Statistics,
    design: &'a cost::design::Design<'a>,
}

impl CopyWeighing<'_> {
    /// Where the copies `made` on `before` cost more as a whole (`with`) than none
    /// (`without`): the design with one fewer at a time (the one whose drop leaves the
    /// cheapest design; never one the model pins) until one costs less than none — that
    /// design, priced, and its decisions (each copy dropped refused, saying why).
    fn fewer(
        &self,
        before: &[Container],
        made: &decision::Trace,
        with: &optimise::Priced,
        without: &optimise::Priced,
    ) -> Option<(Vec<Container>, optimise::Priced, decision::Trace)> {
        let mut kept: BTreeSet<String> = made
            .decisions()
            .filter(|d| d.rule == Rule::Copy && d.outcome.starts_with("copy ") && d.evidence.get("pinned").is_none())
            .map(|d| d.subject.clone())
            .collect();
        // Dropping the last one leaves none, already weighed.
        while kept.len() > 1 {
            let mut best: Option<(String, Cow<'_, [Container]>, optimise::Priced, decision::Trace)> = None;
            for dropped in &kept {
                let mut fewer = kept.clone();
                fewer.remove(dropped);
                let (design, priced, decisions) = self.only(before, &fewer);
                if best.as_ref().is_none_or(|(_, _, b, _)| priced.cheaper_than(b)) {
                    best = Some((dropped.clone(), design, priced, decisions));
                }
            }
            let (dropped, design, priced, mut decisions) = best?;
            kept.remove(&dropped);
            if priced.cheaper_than(without) {
                decisions.append(refused_beside_others(made, &kept, with, &priced));
                return Some((design.into_owned(), priced, decisions));
            }
        }
        None
    }

    /// `before` with the copies of the reads in `kept` (and those the model pins), priced,
    /// with their decisions.
    fn only<'b>(
        &self,
        before: &'b [Container],
        kept: &BTreeSet<String>,
    ) -> (Cow<'b, [Container]>, optimise::Priced, decision::Trace) {
        let mut design = Cow::Borrowed(before);
        let mut decisions = decision::Trace::default();
        let considered = optimise::copy::Considered::PinnedAnd(kept);
        optimise::copy::apply(
            self.model,
            self.stats,
            self.design,
            &mut design,
            &mut decisions,
            considered,
        );
        let priced = price(self.model, self.options, &design);
        (design, priced, decisions)
    }
}

/// The copy decisions of `made` for reads not in `kept` (none pinned): refusals as
/// made, and each copy made there but dropped, refused, saying that the whole workload
/// costs `fewer` with only the copies `kept` against `with` with every copy made.
fn refused_beside_others(
    made: &decision::Trace,
    kept: &BTreeSet<String>,
    with: &optimise::Priced,
    fewer: &optimise::Priced,
) -> decision::Trace {
    // What the copies dropped save and add across the whole workload: their break-even.
    let (saves, adds) = cost::optimisations::saves_and_adds(
        with.by_pattern
            .iter()
            .map(|(name, ru)| fewer.by_pattern.get(name).copied().unwrap_or(0.0) - ru),
    );
    let without = match kept.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>() {
        kept if kept.is_empty() => "without any copy".to_string(),
        kept => format!("with only the copies for {}", kept.join(", ")),
    };
    let mut refused = made.clone();
    refused.retain_mut(|d| {
        if d.rule != Rule::Copy || kept.contains(&d.subject) || d.evidence.get("pinned").is_some() {
            return false;
        }
        if d.outcome.starts_with("copy ") {
            d.outcome = "no copy".to_string();
            d.reason = format!(
                "alone it would save fan-out for more than its copy writes, but the whole workload costs {} {without} against {} with every copy made: a copy grows the container it is kept in, whose other queries then fan out over more partitions",
                statistics::human_ru_per_second(fewer.total()),
                statistics::human_ru_per_second(with.total())
            );
            optimise::break_even(d, saves, adds, false);
        }
        true
    });
    refused
}

/// The copy step again, on the design the later steps left, when round one refused a
/// copy that it priced (one that could be made): the copies it now makes are kept if
/// the design with them costs less, their decisions replacing round one's.
fn copies_again(
    model: &DomainModel,
    options: &Options,
    stats: &statistics::Statistics,
    containers: &mut Arc<Vec<Container>>,
    trace: &mut decision::Trace,
    priced: Option<optimise::Priced>,
) -> Option<optimise::Priced> {
    if !optimise::refused_priced(trace, Rule::Copy, "no copy", "readRuSaved") {
        return priced;
    }
    let mut design = Cow::Borrowed(&containers[..]);
    let mut again = decision::Trace::default();
    let (changed, with, _) = copies(model, options, stats, &mut design, &mut again);
    let cheaper = priced.as_ref().is_none_or(|p| with.cheaper_than(p));
    if !changed || !cheaper {
        return priced;
    }
    optimise::replace_made(trace, again, Rule::Copy, |outcome| outcome.starts_with("copy "));
    *containers = Arc::new(design.into_owned());
    Some(with)
}

/// `candidate` finished (unique keys, claims, operations, indexing) and priced the
/// way the cost table prices it: what each optimisation is weighed on.
fn price(model: &DomainModel, options: &Options, candidate: &[Container]) -> optimise::Priced {
    let mut finished = decision::Trace::default();
    let (containers, operations) = finish(model, options, candidate.to_vec(), &mut finished);
    optimise::Priced::new(model, containers, operations, finished)
}

/// The physical steps after the containers' contents are decided: sound unique
/// keys, each access pattern as operations, and indexing narrowed to what they use.
fn finish(
    model: &DomainModel,
    options: &Options,
    mut containers: Vec<Container>,
    trace: &mut decision::Trace,
) -> (Vec<Container>, Vec<operations::Operation>) {
    for container in &mut containers {
        rules::unique_keys::apply(container, trace);
    }
    rules::unique_claims::apply(&mut containers, &options.claims_container, trace);
    let mut operations = operations::resolve(model, &containers);
    cost::choose::reads(model, &containers, &mut operations);
    if !options.index_all {
        let workers = operations::worker_queries(&containers);
        rules::indexing::apply(&mut containers, &operations, &workers, trace);
    }
    (containers, operations)
}
