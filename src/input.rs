//! Input files read whole, with a bound on their size (issue 29): a configuration, a trace, a
//! mapping or a schedule is read into memory, so a file the size of the machine's memory (or
//! `/dev/zero`, which never ends) must be refused by name before it is, not read until an
//! allocation aborts the process.
//!
//! A regular file's size is known before it is read: one above the bound is refused at once. A
//! device (`/dev/zero`) is refused unread. A named pipe (a process substitution) is read up to
//! the bound plus one byte, and refused if it reaches it. The bounds are per kind of input and
//! generous for real inputs (a SimGrid trace of a real run is tens of megabytes a rank at most;
//! docs/decisions/0040-input-bounds.md).

use std::io::Read;
use std::path::Path;

/// The largest configuration, mapping, schedule or fault file: 16 MiB.
pub const MAX_SMALL_BYTES: u64 = 16 << 20;

/// The largest trace file (a SimGrid TI file, a DPSNN trace, a Paraver or Perfetto file): 2 GiB.
pub const MAX_TRACE_BYTES: u64 = 2 << 30;

/// `path` whole, at most `limit` bytes; an error naming the file otherwise.
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let name = path.display();
    let f = std::fs::File::open(path).map_err(|e| format!("{name}: cannot read: {e}"))?;
    let meta = f
        .metadata()
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    if meta.is_dir() {
        return Err(format!("{name}: cannot read: it is a directory"));
    }
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() {
            return Err(format!("{name}: a device, not a file"));
        }
    }
    if meta.is_file() && meta.len() > limit {
        return Err(too_large(path, limit, Some(meta.len())));
    }
    let mut bytes = Vec::new();
    f.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{name}: cannot read: {e}"))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path, limit, None));
    }
    Ok(bytes)
}

/// `path` whole as UTF-8 text, at most `limit` bytes.
pub fn read_text_bounded(path: &Path, limit: u64) -> Result<String, String> {
    let bytes = read_bounded(path, limit)?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {} is not)",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

fn too_large(path: &Path, limit: u64, size: Option<u64>) -> String {
    let size = size.map_or_else(|| "more".to_string(), |s| format!("{s} bytes"));
    format!(
        "{}: {size}, larger than the {} MiB this kind of input may be (a file of another kind, \
         or one that never ends?)",
        path.display(),
        limit >> 20
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_file_reads_and_a_large_one_or_an_endless_device_is_refused_by_name() {
        let dir = std::env::temp_dir().join(format!("exanet-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.toml");
        std::fs::write(&f, "x = 1\n").unwrap();
        assert_eq!(read_text_bounded(&f, 6).unwrap(), "x = 1\n");
        let e = read_text_bounded(&f, 5).unwrap_err();
        assert!(e.contains("a.toml: 6 bytes, larger than"), "{e}");
        let e = read_bounded(Path::new("/dev/zero"), 1 << 20).unwrap_err();
        assert_eq!(e, "/dev/zero: a device, not a file");
        let e = read_bounded(&dir, 1 << 20).unwrap_err();
        assert!(e.contains("it is a directory"), "{e}");
        // a named pipe that gives more than the bound: read to the bound, then refused
        let fifo = dir.join("pipe");
        let st = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(st.success());
        let w = fifo.clone();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            let mut f = std::fs::OpenOptions::new().write(true).open(w).unwrap();
            // (the reader closes the pipe after the bound: the rest fails, as it should)
            let _ = f.write_all(&vec![b'x'; 3 << 20]);
        });
        let e = read_bounded(&fifo, 1 << 20).unwrap_err();
        assert!(e.ends_with("pipe: more, larger than the 1 MiB this kind of input may be (a file of another kind, or one that never ends?)"), "{e}");
        writer.join().unwrap();
        std::fs::write(&f, [0xff, 0xfe]).unwrap();
        assert!(read_text_bounded(&f, 10).unwrap_err().contains("not UTF-8"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
