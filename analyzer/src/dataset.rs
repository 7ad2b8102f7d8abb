//! A partitioned Parquet dataset: every frame of many archives (the shards of a campaign, or
//! campaigns), written one archive at a time as `DIR/<frame>/part-NNNNN.parquet`, with
//! `DIR/dataset.json` holding what each archive said of itself (header, integrity). `tables`,
//! `classes` and `compare` read such a directory instead of archives: only the frames they
//! use, never decoding a session again.

use crate::load::{self, Archives, Frames, LoadError, Source, Want};
use morphtrace_schema::{ArchiveHeader, RecoveryReport};
use polars::prelude::*;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

/// The file that makes a directory a dataset.
pub const MANIFEST: &str = "dataset.json";
const FORMAT: &str = "morphtrace dataset 1";

#[derive(Debug, thiserror::Error)]
pub enum DatasetError {
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    #[error("{0}: {1}")]
    Parquet(PathBuf, PolarsError),
    #[error("{0}: not a morphtrace dataset ({1})")]
    Manifest(PathBuf, String),
    #[error("{0} exists and is not empty: give a new directory")]
    Exists(PathBuf),
    #[error(transparent)]
    Load(#[from] LoadError),
}

/// One archive of the dataset.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Part {
    path: String,
    header: ArchiveHeader,
    recovery: RecoveryReport,
    undecodable: Vec<String>,
    sessions: usize,
    events: u64,
}

#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Manifest {
    format: String,
    parts: Vec<Part>,
    /// Archives that could not be read when the dataset was written.
    unreadable: Vec<String>,
}

/// What `write` did.
#[derive(Debug)]
pub struct Written {
    pub parts: usize,
    pub sessions: usize,
    pub events: u64,
    /// Rows per frame over all parts.
    pub rows: Vec<(&'static str, usize)>,
    pub unreadable: Vec<String>,
}

/// True when `dir` holds a dataset.
pub fn is_dataset(dir: &Path) -> bool {
    dir.join(MANIFEST).is_file()
}

fn part_file(dir: &Path, frame: &str, i: usize) -> PathBuf {
    dir.join(frame).join(format!("part-{i:05}.parquet"))
}

/// Writes `paths` as a dataset into `dir` (new or empty), one archive in memory at a time.
pub fn write(paths: &[PathBuf], dir: &Path) -> Result<Written, DatasetError> {
    if dir.exists()
        && std::fs::read_dir(dir)
            .map_err(|e| DatasetError::Io(dir.to_path_buf(), e))?
            .next()
            .is_some()
    {
        return Err(DatasetError::Exists(dir.to_path_buf()));
    }
    let names: Vec<&'static str> = Frames::empty()?.all().iter().map(|(n, _)| *n).collect();
    for n in &names {
        let d = dir.join(n);
        std::fs::create_dir_all(&d).map_err(|e| DatasetError::Io(d, e))?;
    }
    let mut manifest = Manifest {
        format: FORMAT.into(),
        parts: Vec::new(),
        unreadable: Vec::new(),
    };
    let mut rows = vec![0usize; names.len()];
    for path in paths {
        let loaded = load::load(std::slice::from_ref(path), Want::ALL)?;
        manifest.unreadable.extend(loaded.unreadable);
        let Some(source) = loaded.sources.into_iter().next() else {
            continue;
        };
        let i = manifest.parts.len();
        let written: Vec<Result<usize, DatasetError>> = loaded
            .frames
            .all()
            .into_par_iter()
            .map(|(name, df)| {
                let file = part_file(dir, name, i);
                let mut df = df.clone();
                // Rows name their archive by its place in the dataset, not in the one-archive load.
                if df
                    .get_column_names()
                    .iter()
                    .any(|c| c.as_str() == "archive")
                {
                    let n = df.height();
                    df.with_column(Column::new("archive".into(), vec![i as u32; n]))
                        .map_err(|e| DatasetError::Parquet(file.clone(), e))?;
                }
                let f =
                    std::fs::File::create(&file).map_err(|e| DatasetError::Io(file.clone(), e))?;
                ParquetWriter::new(f)
                    .with_compression(ParquetCompression::Zstd(None))
                    .finish(&mut df)
                    .map_err(|e| DatasetError::Parquet(file.clone(), e))?;
                Ok(df.height())
            })
            .collect();
        for (acc, w) in rows.iter_mut().zip(written) {
            *acc += w?;
        }
        manifest.parts.push(Part {
            path: source.path,
            header: source.header,
            recovery: source.recovery,
            undecodable: source.undecodable,
            sessions: source.sessions,
            events: source.events,
        });
    }
    let m = dir.join(MANIFEST);
    let text = serde_json::to_string_pretty(&manifest)
        .map_err(|e| DatasetError::Manifest(m.clone(), e.to_string()))?;
    std::fs::write(&m, text).map_err(|e| DatasetError::Io(m.clone(), e))?;
    Ok(Written {
        parts: manifest.parts.len(),
        sessions: manifest.parts.iter().map(|p| p.sessions).sum(),
        events: manifest.parts.iter().map(|p| p.events).sum(),
        rows: names.into_iter().zip(rows).collect(),
        unreadable: manifest.unreadable,
    })
}

/// Whether `want` needs frame `name` (the others stay empty: never read).
fn wanted(name: &str, want: Want) -> bool {
    match name {
        "actions" | "outputs" | "frames" | "breakpoints" => want.events,
        "variables" => want.variables,
        "coverage_lines" | "coverage_blocks" => want.coverage,
        _ => true,
    }
}

/// Loads a dataset as `load::load` loads archives: the frames `want` asks for, read from the
/// Parquet parts (all parts of a frame on rayon's threads), the others empty; no programs (the
/// analyses that need program text read archives).
pub fn load(dir: &Path, want: Want) -> Result<Archives, DatasetError> {
    let m = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&m).map_err(|e| DatasetError::Io(m.clone(), e))?;
    let manifest: Manifest = serde_json::from_str(&text)
        .map_err(|e| DatasetError::Manifest(m.clone(), e.to_string()))?;
    if manifest.format != FORMAT {
        return Err(DatasetError::Manifest(
            m,
            format!("format {:?}, this build reads {FORMAT:?}", manifest.format),
        ));
    }
    let empty = Frames::empty()?;
    let n = manifest.parts.len();
    let frames: Vec<Result<DataFrame, DatasetError>> = empty
        .all()
        .into_par_iter()
        .map(|(name, schema_df)| {
            if !wanted(name, want) {
                return Ok(schema_df.clone());
            }
            let parts: Vec<Result<DataFrame, DatasetError>> = (0..n)
                .into_par_iter()
                .map(|i| {
                    let file = part_file(dir, name, i);
                    let f = std::fs::File::open(&file)
                        .map_err(|e| DatasetError::Io(file.clone(), e))?;
                    ParquetReader::new(f)
                        .finish()
                        .map_err(|e| DatasetError::Parquet(file.clone(), e))
                })
                .collect();
            let mut acc = schema_df.clone();
            for p in parts {
                let p = p?;
                acc.vstack_mut(&p)
                    .map_err(|e| DatasetError::Parquet(dir.join(name), e))?;
            }
            acc.rechunk_mut_par();
            Ok(acc)
        })
        .collect();
    let frames = Frames::from_vec(frames.into_iter().collect::<Result<Vec<_>, _>>()?);
    let events = manifest.parts.iter().map(|p| p.events).sum();
    Ok(Archives {
        sources: manifest
            .parts
            .into_iter()
            .map(|p| Source {
                path: p.path,
                header: p.header,
                recovery: p.recovery,
                undecodable: p.undecodable,
                sessions: p.sessions,
                events: p.events,
            })
            .collect(),
        unreadable: manifest.unreadable,
        programs: Default::default(),
        frames,
        events,
    })
}
