//! Ranks (the processes of an SPMD program) placed on the network's endpoints (Minkenberg and Rodriguez 2008 §4.9
//! "Task mapping": "task n is mapped to the host corresponding to the hostname specified on
//! line n. In principle, multiple tasks can be mapped to the same host").
//!
//! Three placements:
//!
//! - `linear`: rank r on endpoint r while there are no more ranks than endpoints; with more
//!   ranks, consecutive ranks share an endpoint, rank r on `r * endpoints / ranks` (blocks whose
//!   sizes differ by at most one). Neighbouring ranks stay neighbours, which is what a DPSNN
//!   process grid numbered x-fastest wants on a torus numbered the same way.
//! - `random:SEED`: a Fisher-Yates shuffle of the linear placement, drawn from a `Mt64` seeded
//!   with SEED, so every endpoint keeps the load the linear placement gave it and only which
//!   ranks share or neighbour changes.
//! - `file:PATH`: Minkenberg and Rodriguez 2008's configuration file with endpoint indices for host names: line i
//!   (blank lines and `#` comments not counted) holds the endpoint of rank i.
//!
//! Every placement is deterministic; every error is a message, never a panic.

use rand_mt::Mt64;
use std::path::PathBuf;

/// The forms `Mapping::parse` accepts, for its error message.
const FORMS: &str = "linear, random, random:SEED or file:PATH";

/// How ranks are placed on endpoints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mapping {
    /// Rank r on endpoint r; blocks of consecutive ranks when ranks outnumber endpoints.
    Linear,
    /// The linear placement shuffled by a generator seeded with `seed`.
    Random { seed: u64 },
    /// One endpoint a line, line i for rank i (`parse_mapping_file`).
    File(PathBuf),
}

impl Mapping {
    /// Parse a command-line value: `linear`, `random` (seeded with `default_seed`),
    /// `random:SEED` or `file:PATH`. A bare path is refused, so that a misspelt keyword is never
    /// taken for a file name.
    pub fn parse(s: &str, default_seed: u64) -> Result<Mapping, String> {
        let bad = |why: &str| format!("mapping `{s}`: {why}; the forms are {FORMS}");
        match s {
            "linear" => return Ok(Mapping::Linear),
            "random" => return Ok(Mapping::Random { seed: default_seed }),
            _ => {}
        }
        if let Some(seed) = s.strip_prefix("random:") {
            return seed
                .parse::<u64>()
                .map(|seed| Mapping::Random { seed })
                .map_err(|_| bad(&format!("seed `{seed}` is not a whole number 0..=2^64-1")));
        }
        if let Some(path) = s.strip_prefix("file:") {
            if path.is_empty() {
                return Err(bad("the file name is missing"));
            }
            return Ok(Mapping::File(PathBuf::from(path)));
        }
        Err(bad("unknown form"))
    }

    /// The endpoint of every rank (index = rank) for `ranks` ranks on `endpoints` endpoints.
    pub fn place(&self, ranks: usize, endpoints: usize) -> Result<Vec<usize>, String> {
        if ranks == 0 {
            return Err("mapping: there are no ranks to place (0 ranks)".to_string());
        }
        if endpoints == 0 {
            return Err(format!(
                "mapping: there are no endpoints to place {ranks} ranks on (0 endpoints)"
            ));
        }
        match self {
            Mapping::Linear => Ok(linear(ranks, endpoints)),
            Mapping::Random { seed } => {
                let mut place = linear(ranks, endpoints);
                crate::block::shuffle(&mut place, &mut Mt64::new(*seed));
                Ok(place)
            }
            Mapping::File(path) => {
                let name = path.display().to_string();
                let text = crate::input::read_text_bounded(path, crate::input::MAX_SMALL_BYTES)
                    .map_err(|e| format!("mapping file {e}"))?;
                parse_mapping_file(&name, &text, ranks, endpoints)
            }
        }
    }
}

/// Rank r on endpoint `r * endpoints / ranks` (r itself when `ranks <= endpoints`).
fn linear(ranks: usize, endpoints: usize) -> Vec<usize> {
    if ranks <= endpoints {
        return (0..ranks).collect();
    }
    // u128: r * endpoints overflows usize only for absurd sizes, but never panic
    (0..ranks)
        .map(|r| (r as u128 * endpoints as u128 / ranks as u128) as usize)
        .collect()
}

/// Parse a mapping file's text: one endpoint index a line, the i-th such line (blank lines and
/// `#` comments not counted) for rank i. Errors read `name:line: problem`: not a number,
/// negative, an endpoint that does not exist, too many or too few ranks, an empty file.
pub fn parse_mapping_file(
    name: &str,
    text: &str,
    ranks: usize,
    endpoints: usize,
) -> Result<Vec<usize>, String> {
    let mut place = Vec::with_capacity(ranks.min(1 << 20));
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        let body = raw.split('#').next().unwrap_or("").trim();
        if body.is_empty() {
            continue;
        }
        let at = |problem: String| format!("{name}:{line}: {problem}");
        if place.len() == ranks {
            return Err(at(format!(
                "one rank too many: the file places more than the {ranks} ranks of the program"
            )));
        }
        let rank = place.len();
        let endpoint = match body.parse::<u64>() {
            Ok(e) => e,
            Err(_) if body.starts_with('-') && body[1..].parse::<u64>().is_ok() => {
                return Err(at(format!("rank {rank}: endpoint {body} is negative")));
            }
            Err(_) => {
                return Err(at(format!(
                    "rank {rank}: `{body}` is not an endpoint index (one whole number a line)"
                )));
            }
        };
        if endpoint >= endpoints as u64 {
            return Err(at(format!(
                "rank {rank}: endpoint {endpoint} does not exist (the network has {endpoints} \
                 endpoints, 0..={})",
                endpoints - 1
            )));
        }
        place.push(endpoint as usize);
    }
    if place.is_empty() {
        return Err(format!(
            "{name}:{}: the file places no rank; expected {ranks} lines, one endpoint each",
            last_line.max(1)
        ));
    }
    if place.len() < ranks {
        return Err(format!(
            "{name}:{last_line}: the file ends after {} ranks; the program has {ranks}",
            place.len()
        ));
    }
    Ok(place)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_takes_every_form_and_names_a_bad_value() {
        assert_eq!(Mapping::parse("linear", 7), Ok(Mapping::Linear));
        assert_eq!(Mapping::parse("random", 7), Ok(Mapping::Random { seed: 7 }));
        assert_eq!(
            Mapping::parse("random:42", 7),
            Ok(Mapping::Random { seed: 42 })
        );
        assert_eq!(
            Mapping::parse("file:maps/a.txt", 7),
            Ok(Mapping::File(PathBuf::from("maps/a.txt")))
        );
        for bad in ["Linear", "random:x", "random:-1", "file:", "maps/a.txt", ""] {
            let e = Mapping::parse(bad, 7).unwrap_err();
            assert!(e.contains(&format!("`{bad}`")), "{e}");
            assert!(
                e.contains("linear, random, random:SEED or file:PATH"),
                "{e}"
            );
        }
    }

    #[test]
    fn linear_is_identity_then_blocks() {
        assert_eq!(Mapping::Linear.place(4, 6), Ok(vec![0, 1, 2, 3]));
        assert_eq!(Mapping::Linear.place(6, 6), Ok(vec![0, 1, 2, 3, 4, 5]));
        assert_eq!(
            Mapping::Linear.place(8, 4),
            Ok(vec![0, 0, 1, 1, 2, 2, 3, 3])
        );
        // blocks of 2 or 3, consecutive, every endpoint used
        let p = Mapping::Linear.place(7, 3).unwrap();
        assert_eq!(p, vec![0, 0, 0, 1, 1, 2, 2]);
    }

    #[test]
    fn no_ranks_or_no_endpoints_is_an_error() {
        for m in [Mapping::Linear, Mapping::Random { seed: 1 }] {
            assert!(m.place(0, 4).unwrap_err().contains("0 ranks"));
            assert!(m.place(4, 0).unwrap_err().contains("0 endpoints"));
        }
    }

    #[test]
    fn random_is_a_seeded_permutation_of_linear() {
        for (ranks, endpoints) in [(72, 72), (50, 72), (144, 36), (7, 3)] {
            let mut lin = Mapping::Linear.place(ranks, endpoints).unwrap();
            let a = Mapping::Random { seed: 1 }.place(ranks, endpoints).unwrap();
            let again = Mapping::Random { seed: 1 }.place(ranks, endpoints).unwrap();
            let b = Mapping::Random { seed: 2 }.place(ranks, endpoints).unwrap();
            assert_eq!(a, again, "{ranks} on {endpoints}: seed 1 not deterministic");
            assert_ne!(a, b, "{ranks} on {endpoints}: seeds 1 and 2 agree");
            assert_ne!(a, lin, "{ranks} on {endpoints}: seed 1 left it linear");
            let (mut a, mut b) = (a, b);
            a.sort_unstable();
            b.sort_unstable();
            lin.sort_unstable();
            assert_eq!(a, lin, "{ranks} on {endpoints}: seed 1 not a permutation");
            assert_eq!(b, lin, "{ranks} on {endpoints}: seed 2 not a permutation");
        }
    }

    #[test]
    fn a_file_places_rank_i_on_line_i_and_skips_comments() {
        let text = "# rank -> endpoint\n3\n\n  0  # rank 1\n3\n";
        assert_eq!(parse_mapping_file("m.txt", text, 3, 4), Ok(vec![3, 0, 3]));
    }

    #[test]
    fn every_file_error_names_file_and_line() {
        let cases = [
            ("0\n1\nx\n", "m.txt:3:", "not an endpoint index"),
            ("0\n-2\n1\n", "m.txt:2:", "negative"),
            ("0\n\n4\n", "m.txt:3:", "endpoint 4 does not exist"),
            ("0\n1\n2\n3\n", "m.txt:4:", "one rank too many"),
            ("0\n# c\n1\n", "m.txt:3:", "ends after 2 ranks"),
            ("", "m.txt:1:", "places no rank"),
            ("# only\n\n", "m.txt:2:", "places no rank"),
            ("1.5\n", "m.txt:1:", "not an endpoint index"),
            (
                "99999999999999999999999\n",
                "m.txt:1:",
                "not an endpoint index",
            ),
        ];
        for (text, at, what) in cases {
            let e = parse_mapping_file("m.txt", text, 3, 4).unwrap_err();
            assert!(e.starts_with(at), "{text:?}: {e}");
            assert!(e.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_file_mapping_reads_the_file_and_names_it() {
        let dir = std::env::temp_dir().join(format!("exanet-mapping-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("map.txt");
        std::fs::write(&path, "1\n1\n0\n").unwrap();
        let m = Mapping::parse(&format!("file:{}", path.display()), 0).unwrap();
        assert_eq!(m.place(3, 2), Ok(vec![1, 1, 0]));
        let e = m.place(3, 1).unwrap_err();
        assert!(e.starts_with(&format!("{}:1:", path.display())), "{e}");
        let missing = Mapping::File(dir.join("absent.txt"));
        assert!(missing.place(3, 2).unwrap_err().contains("absent.txt"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
