//! The bundle as a stream of gzip members: each batch of files is one member holding its tar
//! entries, and a final member holds tar's end-of-archive blocks. Concatenated gzip members are one
//! valid (multi-member) gzip stream and concatenated entries one tar, so the caller appends batches
//! as they are rendered without ever recompressing. Headers carry fixed owner, mode and the given
//! mtime, and gzip headers no time or name: the same files give the same bytes.

use std::io::Write;

use flate2::write::GzEncoder;
use flate2::{Compression, GzBuilder};
use tar::{EntryType, Header};

use super::links::is_safe_path;
use super::ExportFile;

/// Size of tar's end-of-archive marker: two zero blocks.
const TRAILER_LEN: usize = 1024;
/// On exported pages (compact sidebars), level 3 packs in 0.38× the time of level 6 for 5% more
/// bytes (level 1 is 70% larger): compression is the largest CPU cost of an export batch. Members
/// of 100 pages (the worker's batch) come within 0.5% of one stream; see README "Gzip members".
const GZIP_LEVEL: u32 = 3;

/// Tar entries of `files`, without the end-of-archive blocks, as one gzip member. Files whose path
/// is not a safe relative path are left out (the plan never produces one). The entries stream into
/// the compressor: no uncompressed copy of the batch is made.
pub fn tar_gz_member(files: &[ExportFile], mtime: u64) -> Vec<u8> {
    let mut builder = tar::Builder::new(Member { gzip: Some(encoder()) });
    builder.mode(tar::HeaderMode::Deterministic);
    for file in files {
        if !is_safe_path(&file.path) {
            continue;
        }
        let mut header = Header::new_gnu();
        header.set_entry_type(EntryType::Regular);
        header.set_mode(0o644);
        header.set_uid(0);
        header.set_gid(0);
        header.set_mtime(mtime);
        header.set_size(file.bytes.len() as u64);
        // Long paths get a GNU long-name entry; writing into memory cannot fail otherwise.
        let _ = builder.append_data(&mut header, &file.path, file.bytes.as_slice());
    }
    // Finishing the archive writes its two zero blocks: only the trailer member has them, so the
    // compressor is taken out first and what follows goes nowhere.
    let gzip = builder.get_mut().gzip.take();
    drop(builder);
    gzip.and_then(|g| g.finish().ok()).unwrap_or_default()
}

/// The writer under a member's tar builder: the compressor, until it is taken.
struct Member {
    gzip: Option<GzEncoder<Vec<u8>>>,
}

impl Write for Member {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.gzip {
            Some(gzip) => gzip.write(buf),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The end-of-archive blocks as the last gzip member.
pub fn tar_gz_trailer() -> Vec<u8> {
    gzip(&[0u8; TRAILER_LEN])
}

fn gzip(raw: &[u8]) -> Vec<u8> {
    let mut encoder = encoder();
    let _ = encoder.write_all(raw);
    encoder.finish().unwrap_or_default()
}

fn encoder() -> GzEncoder<Vec<u8>> {
    // GzBuilder writes mtime 0 and no file name: nothing in the header varies between runs.
    GzBuilder::new().write(Vec::new(), Compression::new(GZIP_LEVEL))
}

#[cfg(test)]
mod tests {
    use std::io::Read;

    use flate2::read::MultiGzDecoder;

    use super::*;

    fn files(names: &[(&str, &str)]) -> Vec<ExportFile> {
        names
            .iter()
            .map(|(p, d)| ExportFile::new(p.to_string(), d.to_string()))
            .collect()
    }

    fn bundle() -> Vec<u8> {
        let long = format!("{}/page.html", "deep".repeat(40));
        let mut out = tar_gz_member(
            &files(&[("index.html", "<p>home</p>"), ("a/b.html", "b")]),
            1_700_000_000,
        );
        out.extend(tar_gz_member(
            &files(&[(long.as_str(), "long"), ("../evil", "x")]),
            1_700_000_000,
        ));
        out.extend(tar_gz_member(&[], 1_700_000_000));
        out.extend(tar_gz_trailer());
        out
    }

    #[test]
    fn members_concatenate_into_one_tar_gz_readable_by_the_tar_crate() {
        let gz = bundle();
        let mut archive = tar::Archive::new(MultiGzDecoder::new(gz.as_slice()));
        let mut seen = Vec::new();
        for entry in archive.entries().unwrap() {
            let mut entry = entry.unwrap();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            assert_eq!(entry.header().mtime().unwrap(), 1_700_000_000);
            let mut data = String::new();
            entry.read_to_string(&mut data).unwrap();
            seen.push((path, data));
        }
        assert_eq!(seen.len(), 3, "{seen:?}");
        assert_eq!(seen[0], ("index.html".into(), "<p>home</p>".into()));
        assert!(seen[2].0.ends_with("deep/page.html"));
        // The end: exactly the two zero blocks after the last entry.
        let mut raw = Vec::new();
        MultiGzDecoder::new(gz.as_slice())
            .read_to_end(&mut raw)
            .unwrap();
        assert!(raw.ends_with(&[0u8; 1024]));
        assert_eq!(raw.len() % 512, 0);
    }

    #[test]
    fn same_files_same_bytes() {
        assert_eq!(bundle(), bundle());
    }

    #[test]
    fn system_tar_lists_and_extracts_the_bundle() {
        let dir = std::env::temp_dir().join(format!("export-tar-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bundle.tar.gz");
        std::fs::write(&path, bundle()).unwrap();
        let list = std::process::Command::new("tar")
            .arg("-tzf")
            .arg(&path)
            .output();
        let Ok(list) = list else {
            eprintln!("no system tar; skipped");
            return;
        };
        assert!(
            list.status.success(),
            "{}",
            String::from_utf8_lossy(&list.stderr)
        );
        let names = String::from_utf8_lossy(&list.stdout);
        assert!(names.lines().any(|l| l == "a/b.html"), "{names}");
        let out = dir.join("out");
        std::fs::create_dir_all(&out).unwrap();
        let status = std::process::Command::new("tar")
            .arg("-xzf")
            .arg(&path)
            .arg("-C")
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
        assert_eq!(std::fs::read_to_string(out.join("a/b.html")).unwrap(), "b");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
