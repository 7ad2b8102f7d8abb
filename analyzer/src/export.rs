//! `export`: every frame as one Parquet or CSV file, named after the frame.

use crate::load::Frames;
use polars::prelude::*;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    Parquet,
    Csv,
}

/// Writes `DIR/<frame>.parquet` (or `.csv`) for every frame; returns the files with their rows.
pub fn export(
    frames: &Frames,
    dir: &Path,
    format: FileFormat,
) -> anyhow::Result<Vec<(PathBuf, usize)>> {
    std::fs::create_dir_all(dir)
        .map_err(|e| anyhow::anyhow!("{}: cannot create the directory: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (name, df) in frames.all() {
        let ext = match format {
            FileFormat::Parquet => "parquet",
            FileFormat::Csv => "csv",
        };
        let path = dir.join(format!("{name}.{ext}"));
        let file =
            std::fs::File::create(&path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let mut df = df.clone();
        match format {
            FileFormat::Parquet => {
                ParquetWriter::new(file)
                    .with_compression(ParquetCompression::Zstd(None))
                    .finish(&mut df)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            }
            FileFormat::Csv => {
                CsvWriter::new(file)
                    .include_header(true)
                    .finish(&mut df)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            }
        }
        written.push((path, df.height()));
    }
    Ok(written)
}
