//! Column helpers over polars frames that every analysis uses: a column as text or numbers,
//! rows by a mask, rows grouped by key columns, a frame built from key and count columns.

use polars::prelude::*;
use std::collections::HashMap;

/// Text of a column, nulls as `-` (a class key must be printable).
pub fn strings(df: &DataFrame, name: &str) -> PolarsResult<Vec<String>> {
    let c = df.column(name)?.cast(&DataType::String)?;
    Ok(c.str()?
        .iter()
        .map(|v| v.unwrap_or("-").to_string())
        .collect())
}

/// The rows of `df` where `keep` holds.
pub fn rows_where(df: &DataFrame, keep: impl IntoIterator<Item = bool>) -> PolarsResult<DataFrame> {
    let mask: BooleanChunked = keep.into_iter().map(Some).collect();
    df.filter(&mask)
}

pub fn u32s(df: &DataFrame, name: &str) -> PolarsResult<Vec<u32>> {
    let c = df.column(name)?.cast(&DataType::UInt32)?;
    Ok(c.u32()?.iter().map(|v| v.unwrap_or(0)).collect())
}

/// A u64 column (session seeds), nulls as 0.
pub fn u64s(df: &DataFrame, name: &str) -> PolarsResult<Vec<u64>> {
    Ok(df
        .column(name)?
        .u64()?
        .iter()
        .map(|v| v.unwrap_or(0))
        .collect())
}

/// Rows of `df` grouped by the text of `keys` (nulls as `-`): each group's key and its rows in
/// order, largest group first, ties by key so that the order is stable. Plain grouping over
/// the key columns' text: the frames grouped here are small (one row per divergence, warning or
/// inconsistency), and it spares the analyzer polars' lazy engine (see Cargo.toml).
pub fn groups(df: &DataFrame, keys: &[&str]) -> PolarsResult<Vec<(Vec<String>, Vec<usize>)>> {
    let cols: Vec<Vec<String>> = keys
        .iter()
        .map(|k| strings(df, k))
        .collect::<PolarsResult<_>>()?;
    let mut by_key: HashMap<Vec<String>, Vec<usize>> = HashMap::new();
    for row in 0..df.height() {
        let key: Vec<String> = cols.iter().map(|c| c[row].clone()).collect();
        by_key.entry(key).or_default().push(row);
    }
    let mut out: Vec<(Vec<String>, Vec<usize>)> = by_key.into_iter().collect();
    out.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    Ok(out)
}

/// A frame of `keys` columns (text) followed by `counts` columns (u32), one row per entry.
pub fn frame(
    keys: &[&str],
    rows: &[(Vec<String>, Vec<u32>)],
    counts: &[&str],
) -> PolarsResult<DataFrame> {
    let mut columns: Vec<Column> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| {
            let v: Vec<&str> = rows.iter().map(|r| r.0[i].as_str()).collect();
            Column::new((*k).into(), v)
        })
        .collect();
    columns.extend(counts.iter().enumerate().map(|(i, c)| {
        let v: Vec<u32> = rows.iter().map(|r| r.1[i]).collect();
        Column::new((*c).into(), v)
    }));
    DataFrame::new(rows.len(), columns)
}
