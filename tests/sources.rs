//! The source documents are cited by author and year, each key listed once with its full
//! reference in `docs/sources.md` (the developers' brief: never by the file names of the plain-text copies).

use std::path::Path;

fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let p = e.unwrap().path();
        if p.is_dir() {
            walk(&p, out);
        } else if matches!(
            p.extension().and_then(|x| x.to_str()),
            Some("rs" | "md" | "sv" | "svh" | "sh" | "py" | "toml" | "c" | "h" | "cpp")
        ) {
            out.push(p);
        }
    }
}

/// The keys of the table in docs/sources.md (its first column).
fn keys() -> Vec<String> {
    let s = std::fs::read_to_string("docs/sources.md").unwrap();
    s.lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| cited as"))
        .map(|l| l.split('|').nth(1).unwrap().trim().to_string())
        .collect()
}

#[test]
fn sources_are_cited_by_their_reference_keys_never_by_file_names() {
    let keys = keys();
    assert!(keys.len() >= 5, "docs/sources.md lists {keys:?}");
    let mut files = Vec::new();
    for d in ["src", "docs", "rtl", "tests", "testbench", "scripts"] {
        walk(Path::new(d), &mut files);
    }
    files.push("README.md".into());
    let mut text = String::new();
    for f in &files {
        let s = std::fs::read_to_string(f).unwrap_or_default();
        // a file-name citation: "seed" then three digits naming a plain-text copy
        for (n, line) in s.lines().enumerate() {
            let b = line.as_bytes();
            // (and the older forms "thesis" or "paper" before the same three digits)
            for (i, w) in ["seed 0", "thesis 0", "paper 0"]
                .iter()
                .flat_map(|w| line.match_indices(w).map(move |(i, _)| (i, w.len() - 1)))
            {
                let d = &b[i + w..];
                assert!(
                    !(d.len() >= 3 && d[..3].iter().all(u8::is_ascii_digit)),
                    "{}:{}: cites a source by its file name: {line}",
                    f.display(),
                    n + 1
                );
            }
        }
        if !f.ends_with("docs/sources.md") && !f.ends_with("tests/sources.rs") {
            text.push_str(&s);
        }
    }
    // the keys cited most resolve: each of the thesis and report keys is listed and used
    for k in [
        "Pisani 2016",
        "Biagioni 2017",
        "Nüssle et al.",
        "Minkenberg and Rodriguez 2008",
    ] {
        assert!(
            keys.iter().any(|x| x == k),
            "docs/sources.md does not list {k}"
        );
        assert!(text.contains(k), "nothing cites {k}");
    }
    let mut unique = keys.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), keys.len(), "a key listed twice: {keys:?}");
}
