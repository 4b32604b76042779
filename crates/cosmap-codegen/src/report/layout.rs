//! A small layered (Sugiyama-style) layout for the report's diagram: nodes ranked
//! by the longest path along their edges (cycles broken at the edges a depth-first
//! walk finds going back), each rank ordered by the barycentre of the ranks above
//! and wrapped into rows of a grid, and every edge routed orthogonally through the
//! channels between rows and the gutters between columns, where no box is, each on
//! a track of its own, its label on that track. Deterministic: node and edge order
//! decide every tie. Written here rather than taken from a crate: the codegen
//! crate is a build-dependency, and this is all the diagram needs.

/// The graph to lay out: each node's height (all are [`BOX_WIDTH`] wide) and the
/// edges (from, to), a node's own edge (from = to) allowed.
pub struct Graph {
    /// Each node's height.
    pub heights: Vec<f64>,
    /// Directed edges by node index.
    pub edges: Vec<(usize, usize)>,
    /// Each edge's label's width (estimated from its text).
    pub label_widths: Vec<f64>,
}

/// A placed box.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

/// The layout: each node's box, each edge's route (its corners, from the source's
/// bottom to the target's top) and label position (the text's left end and
/// baseline), and the drawing's size.
pub struct Laid {
    /// By node.
    pub boxes: Vec<Rect>,
    /// By edge.
    pub routes: Vec<Vec<(f64, f64)>>,
    /// By edge.
    pub labels: Vec<(f64, f64)>,
    /// The drawing's width.
    pub width: f64,
    /// The drawing's height.
    pub height: f64,
}

/// Every box's width.
pub const BOX_WIDTH: f64 = 250.0;
/// Boxes in one row of the grid at most: four fit 1,400 px with their gutters.
const COLUMNS: usize = 4;
/// Height of one edge's track in a channel (a label's line).
const TRACK: f64 = 16.0;
/// Width of one edge's lane in a gutter.
const LANE: f64 = 8.0;
const GUTTER_MIN: f64 = 44.0;
const CHANNEL_PAD: f64 = 12.0;

/// Lays `g` out.
pub fn layout(g: &Graph) -> Laid {
    let n = g.heights.len();
    let rank = ranks(n, &g.edges);
    // As many columns as the widest rank needs, four at most.
    let widest = (0..n)
        .map(|r| rank.iter().filter(|&&x| x == r).count())
        .max()
        .unwrap_or(1);
    let columns = widest.clamp(1, COLUMNS);
    let (cell, rows) = grid(n, &g.edges, &rank, columns);
    let routing = Routing::plan(g, &cell, rows, columns);
    routing.place(g, &cell)
}

/// Each node's rank: the longest path to it along the edges a depth-first walk (in
/// node order) does not find going back.
fn ranks(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        if a != b && !out[a].contains(&b) {
            out[a].push(b);
        }
    }
    // 0 unvisited, 1 on the walk's path, 2 done; edges to a node on the path go back.
    let mut state = vec![0u8; n];
    let mut forward: Vec<(usize, usize)> = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    for start in 0..n {
        if state[start] != 0 {
            continue;
        }
        let mut stack = vec![(start, 0usize)];
        state[start] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&w) = out[v].get(*next) {
                *next += 1;
                match state[w] {
                    0 => {
                        forward.push((v, w));
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    2 => forward.push((v, w)),
                    _ => {}
                }
            } else {
                state[v] = 2;
                order.push(v);
                stack.pop();
            }
        }
    }
    // `order` is a post-order: reversed, every kept edge goes forward in it.
    let mut rank = vec![0usize; n];
    for &v in order.iter().rev() {
        for &(a, b) in forward.iter().filter(|(a, _)| *a == v) {
            rank[b] = rank[b].max(rank[a] + 1);
        }
    }
    rank
}

/// Each node's (row, column) in the grid and the number of rows: rank by rank, each
/// ordered by the mean column of the nodes above it links with, wrapped into rows
/// of `columns`.
fn grid(n: usize, edges: &[(usize, usize)], rank: &[usize], columns: usize) -> (Vec<(usize, usize)>, usize) {
    let mut cell = vec![(0usize, 0usize); n];
    let mut placed = vec![false; n];
    let mut row = 0;
    let top = rank.iter().copied().max().unwrap_or(0);
    for r in 0..=top {
        let mut members: Vec<(f64, usize)> = (0..n)
            .filter(|&v| rank[v] == r)
            .map(|v| {
                let above: Vec<f64> = edges
                    .iter()
                    .filter_map(|&(a, b)| match (a == v, b == v) {
                        (false, true) if placed[a] => Some(cell[a].1 as f64),
                        (true, false) if placed[b] => Some(cell[b].1 as f64),
                        _ => None,
                    })
                    .collect();
                let centre = (columns as f64 - 1.0) / 2.0;
                let bary = if above.is_empty() {
                    centre
                } else {
                    above.iter().sum::<f64>() / above.len() as f64
                };
                (bary, v)
            })
            .collect();
        members.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for chunk in members.chunks(columns) {
            let count = chunk.len();
            let mut previous: Option<usize> = None;
            for (i, &(bary, v)) in chunk.iter().enumerate() {
                // As near its barycentre as the order and the nodes after it allow.
                let wanted = bary.round().max(0.0) as usize;
                let low = previous.map_or(0, |p| p + 1);
                let column = wanted.clamp(low, columns - (count - i));
                cell[v] = (row, column);
                placed[v] = true;
                previous = Some(column);
            }
            row += 1;
        }
    }
    (cell, row.max(1))
}

/// Where each edge runs: its tracks in the channels (channel `k` lies above row `k`)
/// and its lane in a gutter (gutter `k` lies left of column `k`).
struct Routing {
    rows: usize,
    columns: usize,
    /// By edge: (first channel, its track), the gutter and its lane when the edge
    /// needs one, and (last channel, its track) when it differs from the first.
    plan: Vec<Plan>,
    tracks: Vec<usize>,
    lanes: Vec<usize>,
    /// By node: its edges leaving (bottom) and arriving (top), in port order.
    out_ports: Vec<Vec<usize>>,
    in_ports: Vec<Vec<usize>>,
}

/// The drawing's frame: the boxes, each gutter's left and each channel's top.
struct Frame {
    boxes: Vec<Rect>,
    gutter_x: Vec<f64>,
    channel_y: Vec<f64>,
    width: f64,
    height: f64,
}

struct Plan {
    first: (usize, usize),
    gutter: Option<(usize, usize)>,
    last: Option<(usize, usize)>,
}

impl Routing {
    fn plan(g: &Graph, cell: &[(usize, usize)], rows: usize, columns: usize) -> Routing {
        let mut tracks = vec![0usize; rows + 1];
        let mut lanes = vec![0usize; columns + 1];
        let take = |counts: &mut Vec<usize>, k: usize| {
            counts[k] += 1;
            (k, counts[k] - 1)
        };
        let mut plan = Vec::with_capacity(g.edges.len());
        for &(a, b) in &g.edges {
            let ((ra, ca), (rb, cb)) = (cell[a], cell[b]);
            let first = take(&mut tracks, ra + 1);
            if rb == ra + 1 {
                plan.push(Plan {
                    first,
                    gutter: None,
                    last: None,
                });
                continue;
            }
            let gutter = if cb >= ca { ca + 1 } else { ca };
            plan.push(Plan {
                first,
                gutter: Some(take(&mut lanes, gutter)),
                last: Some(take(&mut tracks, rb)),
            });
        }
        let n = cell.len();
        let mut out_ports: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut in_ports: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (e, &(a, b)) in g.edges.iter().enumerate() {
            out_ports[a].push(e);
            in_ports[b].push(e);
        }
        // Ports ordered by the other end's column (fewer crossings), then edge order.
        for (ports, other) in [(&mut out_ports, 1usize), (&mut in_ports, 0usize)] {
            for list in ports.iter_mut() {
                list.sort_by_key(|&e| {
                    let end = if other == 1 { g.edges[e].1 } else { g.edges[e].0 };
                    (cell[end].1, e)
                });
            }
        }
        Routing {
            rows,
            columns,
            plan,
            tracks,
            lanes,
            out_ports,
            in_ports,
        }
    }

    /// Where the columns, gutters, channels and boxes go: gutters as wide as their
    /// lanes, channels as tall as their tracks, rows as tall as their tallest box.
    fn frame(&self, g: &Graph, cell: &[(usize, usize)]) -> Frame {
        let gutter_w: Vec<f64> = self
            .lanes
            .iter()
            .map(|&l| GUTTER_MIN.max(2.0 * LANE + l as f64 * LANE))
            .collect();
        let columns = self.columns;
        let mut column_x = Vec::with_capacity(columns);
        let mut x = 0.0;
        for w in gutter_w.iter().take(columns) {
            x += w;
            column_x.push(x);
            x += BOX_WIDTH;
        }
        let width = x + gutter_w[columns];
        let gutter_x: Vec<f64> = (0..=columns)
            .map(|k| if k == 0 { 0.0 } else { column_x[k - 1] + BOX_WIDTH })
            .collect();
        let mut row_h = vec![0.0_f64; self.rows];
        for (v, &(r, _)) in cell.iter().enumerate() {
            row_h[r] = row_h[r].max(g.heights[v]);
        }
        let (mut channel_y, mut row_y) = (Vec::new(), Vec::new());
        let mut y = 0.0;
        // Each row below its channel, the last channel below the last row.
        for (tracks, row) in self.tracks.iter().zip(row_h.iter().map(Some).chain([None])) {
            channel_y.push(y);
            y += 2.0 * CHANNEL_PAD + *tracks as f64 * TRACK;
            if let Some(h) = row {
                row_y.push(y);
                y += h;
            }
        }
        let boxes: Vec<Rect> = cell
            .iter()
            .enumerate()
            .map(|(v, &(r, c))| Rect {
                x: column_x[c],
                y: row_y[r],
                w: BOX_WIDTH,
                h: g.heights[v],
            })
            .collect();
        Frame {
            boxes,
            gutter_x,
            channel_y,
            width,
            height: y,
        }
    }

    /// The boxes where [`Routing::frame`] puts them, and each edge's route and label.
    fn place(&self, g: &Graph, cell: &[(usize, usize)]) -> Laid {
        let Frame {
            boxes,
            gutter_x,
            channel_y,
            width,
            height,
        } = self.frame(g, cell);
        let port = |ports: &[usize], e: usize, b: &Rect| {
            let i = ports.iter().position(|&p| p == e).unwrap_or(0);
            b.x + BOX_WIDTH * (i + 1) as f64 / (ports.len() + 1) as f64
        };
        let track_y = |(k, t): (usize, usize)| channel_y[k] + CHANNEL_PAD + (t as f64 + 0.5) * TRACK + 4.0;
        let mut routes = Vec::with_capacity(g.edges.len());
        let mut labels = Vec::with_capacity(g.edges.len());
        for (e, &(a, b)) in g.edges.iter().enumerate() {
            let (from, to) = (boxes[a], boxes[b]);
            let sx = port(&self.out_ports[a], e, &from);
            let tx = port(&self.in_ports[b], e, &to);
            let p = &self.plan[e];
            let y1 = track_y(p.first);
            let mut route = vec![(sx, from.y + from.h), (sx, y1)];
            let next_x = match (p.gutter, p.last) {
                (Some((k, lane)), Some(last)) => {
                    let gx = gutter_x[k] + LANE + lane as f64 * LANE;
                    let y2 = track_y(last);
                    route.extend([(gx, y1), (gx, y2), (tx, y2)]);
                    gx
                }
                _ => {
                    route.push((tx, y1));
                    tx
                }
            };
            route.push((tx, to.y));
            routes.push(route);
            // On its own track, just above it, beside the source's port; inside the drawing.
            let label_w = g.label_widths.get(e).copied().unwrap_or(0.0);
            let lx = if next_x >= sx { sx + 4.0 } else { sx - 4.0 - label_w };
            labels.push((lx.clamp(2.0, (width - label_w - 2.0).max(2.0)), y1 - 3.0));
        }
        Laid {
            boxes,
            routes,
            labels,
            width,
            height,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the segment a–b passes through the inside of `r` (1 px in from its edge).
    fn crosses(r: &Rect, a: (f64, f64), b: (f64, f64)) -> bool {
        let (x0, x1) = (a.0.min(b.0), a.0.max(b.0));
        let (y0, y1) = (a.1.min(b.1), a.1.max(b.1));
        x1 > r.x + 1.0 && x0 < r.x + r.w - 1.0 && y1 > r.y + 1.0 && y0 < r.y + r.h - 1.0
    }

    fn sample() -> Graph {
        // A chain, a fan-out wider than a row, a cycle, a node's own edge.
        let mut edges = vec![(0, 1), (1, 2), (2, 0), (3, 3)];
        edges.extend((4..10).map(|v| (0, v)));
        edges.push((9, 1));
        Graph {
            heights: (0..10).map(|v| 60.0 + 13.0 * v as f64).collect(),
            label_widths: vec![60.0; edges.len()],
            edges,
        }
    }

    /// Every route starts on its source's bottom, ends on its target's top and
    /// passes through no other box; no two boxes overlap; no two labels share a
    /// track where they would overlap.
    fn check(g: &Graph) {
        let laid = layout(g);
        for (e, route) in laid.routes.iter().enumerate() {
            let (a, b) = g.edges[e];
            for (v, r) in laid.boxes.iter().enumerate() {
                if v == a || v == b {
                    continue;
                }
                for s in route.windows(2) {
                    assert!(
                        !crosses(r, s[0], s[1]),
                        "edge {e} {:?} crosses box {v} {r:?}",
                        g.edges[e]
                    );
                }
            }
            let (from, to) = (laid.boxes[a], laid.boxes[b]);
            assert_eq!(route[0].1, from.y + from.h);
            assert_eq!(route[route.len() - 1].1, to.y);
        }
        for (i, a) in laid.boxes.iter().enumerate() {
            for b in &laid.boxes[i + 1..] {
                let apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(apart, "{a:?} {b:?}");
            }
        }
        for (i, a) in laid.labels.iter().enumerate() {
            for (j, b) in laid.labels.iter().enumerate().skip(i + 1) {
                let (wa, wb) = (g.label_widths[i], g.label_widths[j]);
                let apart = (a.1 - b.1).abs() >= TRACK - 0.01 || a.0 + wa <= b.0 || b.0 + wb <= a.0;
                assert!(apart, "{a:?} {b:?}");
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_graph_is_laid_out_without_crossings(
            heights in proptest::collection::vec(40.0_f64..400.0, 1..14),
            pairs in proptest::collection::vec((0usize..14, 0usize..14), 0..30),
        ) {
            let n = heights.len();
            let edges: Vec<(usize, usize)> = pairs.into_iter().map(|(a, b)| (a % n, b % n)).collect();
            let label_widths = edges.iter().map(|(a, b)| 40.0 + 7.0 * ((a + b) % 9) as f64).collect();
            check(&Graph { heights, edges, label_widths });
        }
    }

    #[test]
    fn no_edge_crosses_a_box_it_does_not_join() {
        check(&sample());
    }

    #[test]
    fn boxes_never_overlap_and_rows_hold_at_most_four() {
        let laid = layout(&sample());
        for (i, a) in laid.boxes.iter().enumerate() {
            for b in &laid.boxes[i + 1..] {
                let apart = a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(apart, "{a:?} {b:?}");
            }
        }
        assert!(laid.width <= 1340.0, "{}", laid.width);
    }

    #[test]
    fn labels_sit_on_tracks_of_their_own() {
        let g = sample();
        let laid = layout(&g);
        for (i, a) in laid.labels.iter().enumerate() {
            for b in &laid.labels[i + 1..] {
                let apart = (a.1 - b.1).abs() >= TRACK - 0.01 || a.0 + 60.0 <= b.0 || b.0 + 60.0 <= a.0;
                assert!(apart, "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn references_point_down_the_ranks() {
        assert_eq!(ranks(3, &[(0, 1), (1, 2), (2, 0)]), vec![0, 1, 2]);
        assert_eq!(ranks(3, &[(2, 1), (1, 0)]), vec![2, 1, 0]);
    }

    #[test]
    fn the_same_graph_lays_out_the_same() {
        let (a, b) = (layout(&sample()), layout(&sample()));
        assert_eq!(a.boxes, b.boxes);
        assert_eq!(a.routes, b.routes);
    }
}
