//! `export`: every frame as one Parquet or CSV file, named after the frame.

use crate::load::Frames;
use polars::prelude::*;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    Parquet,
    Csv,
}

/// Why an export failed, with the path it failed on.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{0}: cannot create the directory: {1}")]
    Directory(PathBuf, std::io::Error),
    #[error("{0}: {1}")]
    File(PathBuf, std::io::Error),
    #[error("{0}: {1}")]
    Write(PathBuf, PolarsError),
}

/// Writes `DIR/<frame>.parquet` (or `.csv`) for every frame; returns the files with their rows.
pub fn export(
    frames: &Frames,
    dir: &Path,
    format: FileFormat,
) -> Result<Vec<(PathBuf, usize)>, ExportError> {
    std::fs::create_dir_all(dir).map_err(|e| ExportError::Directory(dir.to_path_buf(), e))?;
    let mut written = Vec::new();
    for (name, df) in frames.all() {
        let ext = match format {
            FileFormat::Parquet => "parquet",
            FileFormat::Csv => "csv",
        };
        let path = dir.join(format!("{name}.{ext}"));
        let file = std::fs::File::create(&path).map_err(|e| ExportError::File(path.clone(), e))?;
        let mut df = df.clone();
        match format {
            FileFormat::Parquet => {
                ParquetWriter::new(file)
                    .with_compression(ParquetCompression::Zstd(None))
                    .finish(&mut df)
                    .map_err(|e| ExportError::Write(path.clone(), e))?;
            }
            FileFormat::Csv => {
                CsvWriter::new(file)
                    .include_header(true)
                    .finish(&mut df)
                    .map_err(|e| ExportError::Write(path.clone(), e))?;
            }
        }
        written.push((path, df.height()));
    }
    Ok(written)
}
