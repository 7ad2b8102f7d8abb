//! Frame encoding: fixed headers with checksums around zstd-compressed MessagePack payloads.

use super::ArchiveError;
use crate::header::FormatVersion;
use serde::{de::DeserializeOwned, Serialize};

pub const PRELUDE_MAGIC: &[u8; 8] = b"MTRACE\r\n";
pub const PRELUDE_LEN: usize = 16;
pub const FRAME_MAGIC: &[u8; 4] = b"MTFR";
pub const FRAME_HEADER_LEN: usize = 24;
pub const TRAILER_MAGIC: &[u8; 4] = b"MTIX";
pub const TRAILER_LEN: usize = 24;
/// Frames decompressing beyond this are treated as corrupt rather than allocated.
pub const MAX_RAW_LEN: u32 = 1 << 30;
const CODEC_ZSTD_MSGPACK: u8 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FrameKind {
    Header = 1,
    Program = 2,
    Session = 3,
    Index = 4,
    /// GenMorph's recorded executions of one function (`genmorph::ExecutionBatch`).
    Executions = 5,
}

impl FrameKind {
    pub fn from_u8(b: u8) -> Option<FrameKind> {
        match b {
            1 => Some(FrameKind::Header),
            2 => Some(FrameKind::Program),
            3 => Some(FrameKind::Session),
            4 => Some(FrameKind::Index),
            5 => Some(FrameKind::Executions),
            _ => None,
        }
    }
}

pub fn prelude(version: FormatVersion) -> [u8; PRELUDE_LEN] {
    let mut p = [0u8; PRELUDE_LEN];
    p[..8].copy_from_slice(PRELUDE_MAGIC);
    p[8..10].copy_from_slice(&version.major.to_le_bytes());
    p[10..12].copy_from_slice(&version.minor.to_le_bytes());
    p
}

pub fn parse_prelude(data: &[u8]) -> Result<FormatVersion, ArchiveError> {
    if data.is_empty() {
        return Err(ArchiveError::Empty);
    }
    if data.len() < 8 || &data[..8] != PRELUDE_MAGIC {
        if data.len() < PRELUDE_LEN && PRELUDE_MAGIC.starts_with(data) {
            return Err(ArchiveError::TooShort {
                len: data.len() as u64,
            });
        }
        return Err(ArchiveError::NotAnArchive);
    }
    if data.len() < PRELUDE_LEN {
        return Err(ArchiveError::TooShort {
            len: data.len() as u64,
        });
    }
    Ok(FormatVersion {
        major: u16::from_le_bytes([data[8], data[9]]),
        minor: u16::from_le_bytes([data[10], data[11]]),
    })
}

/// A frame header as found in the file (both checksums verified by `parse_frame_header`).
#[derive(Debug, Clone, Copy)]
pub struct FrameHeader {
    pub kind: u8,
    pub codec: u8,
    pub payload_len: u32,
    pub raw_len: u32,
    pub payload_crc: u32,
}

impl FrameHeader {
    pub fn total_len(&self) -> usize {
        FRAME_HEADER_LEN + self.payload_len as usize
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Parses a frame header at the start of `b`; `None` if the magic or header checksum is wrong.
pub fn parse_frame_header(b: &[u8]) -> Option<FrameHeader> {
    if b.len() < FRAME_HEADER_LEN || &b[..4] != FRAME_MAGIC {
        return None;
    }
    if crc32fast::hash(&b[..20]) != u32_at(b, 20) {
        return None;
    }
    Some(FrameHeader {
        kind: b[4],
        codec: b[5],
        payload_len: u32_at(b, 8),
        raw_len: u32_at(b, 12),
        payload_crc: u32_at(b, 16),
    })
}

/// Parses the trailer at the start of `b`: the offset of the index frame and the frame count.
pub fn parse_trailer(b: &[u8]) -> Option<(u64, u32)> {
    if b.len() < TRAILER_LEN || &b[..4] != TRAILER_MAGIC {
        return None;
    }
    if crc32fast::hash(&b[..20]) != u32_at(b, 20) {
        return None;
    }
    let offset = u64::from_le_bytes(b[8..16].try_into().ok()?);
    Some((offset, u32_at(b, 16)))
}

pub fn trailer(index_offset: u64, frames: u32) -> [u8; TRAILER_LEN] {
    let mut t = [0u8; TRAILER_LEN];
    t[..4].copy_from_slice(TRAILER_MAGIC);
    t[8..16].copy_from_slice(&index_offset.to_le_bytes());
    t[16..20].copy_from_slice(&frames.to_le_bytes());
    let crc = crc32fast::hash(&t[..20]);
    t[20..24].copy_from_slice(&crc.to_le_bytes());
    t
}

/// Reusable encoder: MessagePack into a scratch buffer, then zstd into the output frame.
pub struct FrameEncoder {
    raw: Vec<u8>,
    compressor: zstd::bulk::Compressor<'static>,
    named: bool,
}

impl FrameEncoder {
    pub fn new(level: i32, named: bool) -> Result<FrameEncoder, ArchiveError> {
        let compressor = zstd::bulk::Compressor::new(level).map_err(|e| ArchiveError::Encode {
            what: "zstd compressor",
            reason: e.to_string(),
        })?;
        Ok(FrameEncoder {
            raw: Vec::with_capacity(64 * 1024),
            compressor,
            named,
        })
    }

    /// Appends a complete frame (header and payload) for `value` to `out`.
    pub fn encode<T: Serialize>(
        &mut self,
        kind: FrameKind,
        value: &T,
        out: &mut Vec<u8>,
    ) -> Result<(), ArchiveError> {
        let what = match kind {
            FrameKind::Header => "header",
            FrameKind::Program => "program",
            FrameKind::Session => "session",
            FrameKind::Index => "index",
            FrameKind::Executions => "executions",
        };
        self.raw.clear();
        let enc = if self.named {
            rmp_serde::encode::write_named(&mut self.raw, value)
        } else {
            rmp_serde::encode::write(&mut self.raw, value)
        };
        enc.map_err(|e| ArchiveError::Encode {
            what,
            reason: e.to_string(),
        })?;
        if self.raw.len() > MAX_RAW_LEN as usize {
            return Err(ArchiveError::Encode {
                what,
                reason: format!("{} bytes exceed the frame limit", self.raw.len()),
            });
        }
        let payload = self
            .compressor
            .compress(&self.raw)
            .map_err(|e| ArchiveError::Encode {
                what,
                reason: e.to_string(),
            })?;
        let mut h = [0u8; FRAME_HEADER_LEN];
        h[..4].copy_from_slice(FRAME_MAGIC);
        h[4] = kind as u8;
        h[5] = CODEC_ZSTD_MSGPACK;
        h[8..12].copy_from_slice(&(payload.len() as u32).to_le_bytes());
        h[12..16].copy_from_slice(&(self.raw.len() as u32).to_le_bytes());
        h[16..20].copy_from_slice(&crc32fast::hash(&payload).to_le_bytes());
        let crc = crc32fast::hash(&h[..20]);
        h[20..24].copy_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&h);
        out.extend_from_slice(&payload);
        Ok(())
    }
}

/// Decodes the payload of a frame whose header was parsed from `frame` (header included).
pub fn decode_payload<T: DeserializeOwned>(
    header: &FrameHeader,
    frame: &[u8],
) -> Result<T, String> {
    if header.codec != CODEC_ZSTD_MSGPACK {
        return Err(format!("unknown codec {}", header.codec));
    }
    if header.raw_len > MAX_RAW_LEN {
        return Err(format!("declared size {} is implausible", header.raw_len));
    }
    let payload = frame
        .get(FRAME_HEADER_LEN..header.total_len())
        .ok_or("payload cut short")?;
    // A decompression context per thread: creating one per frame costs more than small frames.
    thread_local! {
        static DCTX: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    let raw = DCTX.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(zstd::bulk::Decompressor::new().map_err(|e| format!("zstd: {e}"))?);
        }
        let d = slot.as_mut().ok_or("zstd: no decompressor")?;
        d.decompress(payload, header.raw_len as usize)
            .map_err(|e| format!("zstd: {e}"))
    })?;
    if raw.len() != header.raw_len as usize {
        return Err(format!(
            "decompressed to {} bytes, header says {}",
            raw.len(),
            header.raw_len
        ));
    }
    rmp_serde::from_slice(&raw).map_err(|e| format!("MessagePack: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;

    /// A newer minor version adds fields; this build must still read its frames (named encoding).
    #[test]
    fn frames_with_unknown_fields_from_a_newer_minor_version_decode() {
        let (_, sessions) = crate::recorded("differential-chromium-firefox-dbdb.mtrace");
        let session = sessions
            .into_iter()
            .max_by_key(|s| s.event_count())
            .unwrap();
        let mut v = serde_json::to_value(&session).unwrap();
        v["future_field"] = serde_json::json!({"added_in": "1.1", "n": 3});
        v["traces"][0]["events"][0]["future_event_field"] = serde_json::json!([1, 2]);
        let mut enc = FrameEncoder::new(3, true).unwrap();
        let mut out = Vec::new();
        enc.encode(FrameKind::Session, &v, &mut out).unwrap();
        let h = parse_frame_header(&out).unwrap();
        let back: Session = decode_payload(&h, &out).unwrap();
        assert_eq!(back, session);
    }

    /// An older minor version lacks the optional fields added since; they take their defaults.
    #[test]
    fn frames_from_an_older_minor_version_without_optional_fields_decode() {
        let (_, sessions) = crate::recorded("differential-chromium-firefox-dbdb.mtrace");
        let session = sessions
            .into_iter()
            .max_by_key(|s| s.event_count())
            .unwrap();
        let mut v = serde_json::to_value(&session).unwrap();
        v.as_object_mut().unwrap().remove("notes");
        v["traces"][0].as_object_mut().unwrap().remove("console");
        let mut enc = FrameEncoder::new(3, true).unwrap();
        let mut out = Vec::new();
        enc.encode(FrameKind::Session, &v, &mut out).unwrap();
        let h = parse_frame_header(&out).unwrap();
        let back: Session = decode_payload(&h, &out).unwrap();
        assert_eq!(back, session);
    }
}
