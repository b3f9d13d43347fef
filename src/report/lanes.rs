//! The lane view's layout: bars grouped into lanes (node steps per nesting depth, model
//! calls, reasoning, text, tool calls, point events), packed into rows where they overlap,
//! and close bars merged when a row would hold more than it can draw.

use std::collections::BTreeMap;

use super::model::{Bar, Lane};

/// Rows per lane: overlapping bars past it share the last row.
const MAX_ROWS: usize = 8;

/// The lanes' order and labels: `(kind, label)`; steps come first, one lane per depth.
const ORDER: &[(&str, &str)] = &[
    ("model", "model calls"),
    ("reasoning", "reasoning"),
    ("text", "messages"),
    ("tool", "tool calls"),
    ("event", "events"),
];

/// Lays out `bars` (each with the lane it goes to: its kind, and the depth for steps) on an
/// axis ending at `end`.
pub fn layout(bars: Vec<(usize, Bar)>, end: i64, max_row_bars: usize) -> Vec<Lane> {
    // Lanes by place: steps `(0, depth)`, the others `(1 + their place in ORDER, 0)`; the
    // kinds ORDER does not name go to its last lane (point events).
    let mut groups: BTreeMap<(usize, usize), Vec<Bar>> = BTreeMap::new();
    for (depth, bar) in bars {
        let place = match ORDER.iter().position(|(k, _)| *k == bar.kind) {
            _ if bar.kind == "step" => (0, depth),
            Some(i) => (1 + i, 0),
            None => (ORDER.len(), 0),
        };
        groups.entry(place).or_default().push(bar);
    }
    let min_depth = groups.keys().find(|k| k.0 == 0).map_or(0, |k| k.1);
    let lanes = groups.into_iter().map(|((place, depth), mut bars)| {
        let (kind, label) = match place.checked_sub(1) {
            Some(i) => (ORDER[i].0, ORDER[i].1.to_string()),
            None if depth == min_depth => ("step", "nodes".to_string()),
            None => {
                let indent = "  ".repeat(depth - min_depth);
                ("step", format!("{indent}↳ nested (depth {depth})"))
            }
        };
        bars.sort_by_key(|b| (b.s, b.e));
        let rows = pack(bars, end).into_iter();
        Lane {
            label,
            kind,
            rows: rows.map(|r| merge(r, end, max_row_bars)).collect(),
        }
    });
    lanes.collect()
}

/// Bars sorted by start into rows where none overlaps another.
fn pack(bars: Vec<Bar>, end: i64) -> Vec<Vec<Bar>> {
    // The least width a bar takes (points and very short bars), in axis units.
    let w = (end / 400).max(1);
    let mut rows: Vec<Vec<Bar>> = Vec::new();
    let mut ends: Vec<i64> = Vec::new();
    for b in bars {
        let right = b.e.max(b.s + w);
        let row = ends.iter().position(|&e| e <= b.s).unwrap_or_else(|| {
            if rows.len() < MAX_ROWS {
                rows.push(Vec::new());
                ends.push(i64::MIN);
            }
            rows.len() - 1
        });
        ends[row] = ends[row].max(right);
        rows[row].push(b);
    }
    rows
}

/// A row of more than `max` bars: bars closer than the axis's `max`th part merged into one.
fn merge(row: Vec<Bar>, end: i64, max: usize) -> Vec<Bar> {
    if row.len() <= max {
        return row;
    }
    let gap = (end / max as i64).max(1);
    let mut out: Vec<Bar> = Vec::new();
    for b in row {
        match out.last_mut() {
            Some(last) if b.s <= last.e.max(last.s) + gap => {
                last.e = last.e.max(b.e);
                last.n += b.n;
                last.label = format!("{} × {}", last.n, b.kind);
                last.info = format!(
                    "{} {} merged (the row has too many to draw one by one)",
                    last.n, b.kind
                );
                last.end_at = Some(b.end_at.unwrap_or(b.at));
            }
            _ => out.push(b),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bar(kind: &'static str, s: i64, e: i64) -> Bar {
        Bar {
            s,
            e,
            kind,
            label: kind.into(),
            at: "f:1".into(),
            end_at: None,
            info: String::new(),
            item: None,
            n: 1,
        }
    }

    #[test]
    fn overlapping_bars_take_rows_and_steps_nest_by_depth() {
        let lanes = layout(
            vec![
                (1, bar("step", 0, 100)),
                (2, bar("step", 10, 50)),
                (0, bar("tool", 10, 60)),
                (0, bar("tool", 20, 70)),
                (0, bar("tool", 80, 90)),
                (0, bar("interrupt", 95, 95)),
            ],
            100,
            100,
        );
        let shape: Vec<(&str, &str, Vec<usize>)> = lanes
            .iter()
            .map(|l| (l.kind, &*l.label, l.rows.iter().map(Vec::len).collect()))
            .collect();
        assert_eq!(
            shape,
            [
                ("step", "nodes", vec![1]),
                ("step", "  ↳ nested (depth 2)", vec![1]),
                ("tool", "tool calls", vec![2, 1]),
                ("event", "events", vec![1])
            ]
        );
    }

    #[test]
    fn crowded_rows_merge_close_bars() {
        let bars = (0..1000).map(|i| (0, bar("text", i, i))).collect();
        let lanes = layout(bars, 1000, 50);
        assert!(lanes[0].rows.iter().all(|r| r.len() <= 50));
        let all: usize = lanes[0].rows.iter().flatten().map(|b| b.n).sum();
        assert_eq!(all, 1000);
    }
}
