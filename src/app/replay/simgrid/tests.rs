//! Tests of the SimGrid TI reader on the real traces in `tests/data/simgrid/` (see its
//! README for the programs and commands behind them) and on hand-made broken ones.

use super::*;
use rand_mt::Mt64;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/simgrid")
        .join(rel)
}

fn load_ok(rel: &str) -> TiTrace {
    load(&fixture(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn actions(t: &TiTrace, r: usize) -> Vec<Action> {
    t.actions(r).cloned().collect()
}

/// `e` is `name:LINE: problem`.
fn located(e: &str, name: &str) -> Option<usize> {
    let rest = e.strip_prefix(name)?.strip_prefix(':')?;
    let (line, problem) = rest.split_once(": ")?;
    (!problem.is_empty()).then_some(())?;
    line.parse().ok()
}

/// The fixture programs' rank files, in rank order, read through their index.
fn rank_files(index: &str) -> Vec<(String, String)> {
    let index = fixture(index);
    let dir = index.parent().unwrap().to_path_buf();
    std::fs::read_to_string(&index)
        .unwrap()
        .lines()
        .map(|l| {
            let p = dir.join(l);
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_valid_fixture_parses() {
    for (index, n) in [
        ("ring/ti.txt", 4),
        ("ring-nocompute/ring-index.txt", 4),
        ("ring-nocompute/ring-one.txt", 4),
        ("colls/colls.txt", 4),
        ("p2p/p2p.txt", 3),
        ("procnull/procnull.txt", 2),
        ("location/location.txt", 4),
        ("sleep/sleep.txt", 1),
        ("datatypes/datatypes.txt", 2),
    ] {
        let t = load_ok(index);
        assert_eq!(t.size(), n, "{index}");
        for r in 0..n {
            let a = actions(&t, r);
            assert_eq!(a.first(), Some(&Action::Init), "{index} rank {r}");
            assert_eq!(a.last(), Some(&Action::Finalize), "{index} rank {r}");
            for (_, loc) in &t.ranks[r] {
                assert!(loc.file.contains("_rank-"), "{index}: {loc:?}");
            }
        }
    }
}

#[test]
fn ring_sends_match_the_program() {
    // ring.c: each of the 4 ranks sends 256 MPI_INTs around the ring, then isends 4.
    let t = load_ok("ring/ti.txt");
    assert_eq!(totals(&t), (8, 4 * 256 * 4 + 4 * 4 * 4));
    let a0: Vec<Action> = actions(&t, 0)
        .into_iter()
        .filter(|a| !matches!(a, Action::Compute { .. }))
        .collect();
    use Action as A;
    assert_eq!(
        a0,
        vec![
            A::Init,
            A::Send {
                dst: 1,
                tag: 7,
                bytes: 1024
            },
            A::Recv {
                src: Some(3),
                tag: Some(7),
                bytes: 1024
            },
            A::Barrier,
            A::Allreduce {
                bytes: 8,
                flops: 0.0
            },
            A::Bcast { bytes: 64, root: 0 },
            A::Alltoall {
                send_bytes: 64,
                recv_bytes: 64
            },
            A::Isend {
                dst: 1,
                tag: 3,
                bytes: 16
            },
            A::Irecv {
                src: Some(3),
                tag: Some(3),
                bytes: 16
            },
            A::Waitall { count: 2 },
            A::Gather {
                send_bytes: 8,
                recv_bytes: 8,
                root: 0
            },
            A::Finalize,
        ]
    );
    assert_eq!(actions(&t, 0)[1], A::Compute { flops: 9.30614 });
    assert_eq!(t.ranks[0][2].1.line, 3);
}

#[test]
fn index_and_one_file_give_the_same_actions() {
    let index = load_ok("ring-nocompute/ring-index.txt");
    let one = load_ok("ring-nocompute/ring-one.txt");
    assert_eq!(index.size(), one.size());
    for r in 0..index.size() {
        assert_eq!(actions(&index, r), actions(&one, r), "rank {r}");
    }
    // The same run both ways: the example's rank files interleaved into one file.
    let files = rank_files("ring/ti.txt");
    let per: Vec<Vec<&str>> = files.iter().map(|(_, t)| t.lines().collect()).collect();
    let mut merged = String::new();
    for i in 0..per.iter().map(Vec::len).max().unwrap() {
        for lines in per.iter().rev() {
            if let Some(l) = lines.get(i) {
                merged.push_str(l);
                merged.push('\n');
            }
        }
    }
    let merged = parse_one_file("merged.txt", &merged, None).unwrap();
    let ring = load_ok("ring/ti.txt");
    for r in 0..4 {
        assert_eq!(actions(&merged, r), actions(&ring, r), "rank {r}");
    }
    assert_eq!(
        parse_one_file("m", "0 init\n0 finalize\n", Some(1))
            .unwrap()
            .size(),
        1
    );
}

#[test]
fn datatype_table_matches_mpi_type_size() {
    // One bcast of one element of each type; sizes.out is the program's MPI_Type_size.
    let t = load_ok("datatypes/datatypes.txt");
    let sizes = std::fs::read_to_string(fixture("datatypes/sizes.out")).unwrap();
    let sizes: Vec<(&str, u64)> = sizes
        .lines()
        .filter(|l| !l.starts_with("MPI_UB") && !l.starts_with("MPI_LB"))
        .map(|l| {
            let (name, size) = l.split_once(' ').unwrap();
            (name.strip_prefix("MPI_").unwrap(), size.parse().unwrap())
        })
        .collect();
    let bcasts: Vec<u64> = t
        .actions(1)
        .filter_map(|a| match a {
            Action::Bcast { bytes, root: 0 } => Some(*bytes),
            _ => None,
        })
        .collect();
    assert_eq!(bcasts.len(), sizes.len());
    let files = rank_files("datatypes/datatypes.txt");
    let ids: Vec<usize> = files[1]
        .1
        .lines()
        .filter(|l| l.contains("bcast"))
        .map(|l| l.split_whitespace().nth(4).unwrap().parse().unwrap())
        .collect();
    for ((&(name, size), &got), &id) in sizes.iter().zip(&bcasts).zip(&ids) {
        assert_eq!(DATATYPES[id].0, name, "id {id}");
        assert_eq!(DATATYPES[id].1, size, "{name}");
        assert_eq!(got, size, "{name}");
    }
    assert_eq!(DATATYPES[55], ("UB", 0));
    assert_eq!(DATATYPES[56], ("LB", 0));
}

#[test]
fn collectives_read_in_simgrid_order() {
    // colls.c, 4 ranks; the comments give the call.
    let t = load_ok("colls/colls.txt");
    use Action as A;
    let expect = |r: u32| {
        let ru = r as u64;
        vec![
            A::Init,
            A::Bcast {
                bytes: 5 * 8,
                root: 2,
            }, // 5 doubles from 2
            A::Reduce {
                bytes: 3 * 4,
                root: 1,
                flops: 0.0,
            }, // 3 ints to 1
            A::Reduce {
                bytes: 7 * 4,
                root: 0,
                flops: 0.0,
            }, // 7 floats to 0
            A::Allreduce {
                bytes: 6 * 8,
                flops: 0.0,
            }, // 6 long long
            A::Scatter {
                send_bytes: 8,
                recv_bytes: 8,
                root: 3,
            }, // 8 chars from 3
            A::Gather {
                send_bytes: 4,
                recv_bytes: 4,
                root: 1,
            }, // 2 shorts to 1
            A::Allgather {
                send_bytes: 12,
                recv_bytes: 12,
            }, // 3 ints
            A::Allgatherv {
                send_bytes: (ru + 1) * 8, // r+1 doubles
                recv_bytes: vec![8, 16, 24, 32],
            },
            A::Gatherv {
                send_bytes: (2 * ru + 1) * 4, // 2r+1 ints to 2
                recv_bytes: if r == 2 {
                    vec![4, 12, 20, 28]
                } else {
                    vec![0; 4]
                },
                root: 2,
            },
            A::Scatterv {
                send_bytes: if r == 0 {
                    vec![12, 16, 20, 24]
                } else {
                    vec![0; 4]
                },
                recv_bytes: (ru + 3) * 4, // r+3 floats from 0
                root: 0,
            },
            A::Alltoall {
                send_bytes: 4,
                recv_bytes: 4,
            }, // 4 bytes
            A::Alltoallv {
                send_bytes: (1..=4).map(|j| (ru + 1) * j * 4).collect(),
                recv_bytes: (1..=4).map(|j| j * (ru + 1) * 4).collect(),
            },
            A::Reducescatter {
                recv_bytes: vec![16, 24, 32, 40], // i+2 doubles
                flops: 0.0,
            },
            A::Scan {
                bytes: 36,
                flops: 0.0,
            }, // 9 unsigned
            A::Barrier,
            A::Finalize,
        ]
    };
    for r in 0..4u32 {
        let got: Vec<Action> = actions(&t, r as usize)
            .into_iter()
            .filter(|a| !matches!(a, A::Compute { .. }))
            .collect();
        assert_eq!(got, expect(r), "rank {r}");
    }
    assert_eq!(totals(&t), (0, 0));
}

#[test]
fn point_to_point_wildcards_waits_and_modes() {
    let t = load_ok("p2p/p2p.txt");
    use Action as A;
    let a0: Vec<Action> = actions(&t, 0)
        .into_iter()
        .filter(|a| !matches!(a, A::Compute { .. }))
        .collect();
    assert_eq!(
        a0,
        vec![
            A::Init,
            A::Recv {
                src: None,
                tag: None,
                bytes: 400
            },
            A::Recv {
                src: None,
                tag: Some(6),
                bytes: 400
            },
            A::Irecv {
                src: None,
                tag: None,
                bytes: 400
            },
            A::Wait {
                src: None,
                dst: Some(0),
                tag: None
            },
            A::Irecv {
                src: Some(1),
                tag: Some(13),
                bytes: 16
            },
            A::Irecv {
                src: Some(2),
                tag: Some(13),
                bytes: 16
            },
            A::Waitany { count: 2 },
            A::Waitany { count: 2 },
            A::SendRecv {
                dst: 1,
                send_bytes: 24,
                src: Some(2),
                recv_bytes: 24
            },
            A::SendRecv {
                dst: 1,
                send_bytes: 4,
                src: None,
                recv_bytes: 4
            },
            A::Ssend {
                dst: 1,
                tag: 16,
                bytes: 36
            },
            A::Issend {
                dst: 2,
                tag: 16,
                bytes: 36
            },
            A::Wait {
                src: Some(0),
                dst: Some(2),
                tag: Some(16)
            },
            A::ProcNullSend {
                kind: SendKind::Send,
                tag: 17,
                bytes: 4
            },
            A::Isend {
                dst: 1,
                tag: 18,
                bytes: 16
            },
            A::Irecv {
                src: Some(2),
                tag: Some(18),
                bytes: 16
            },
            A::Testany,
            A::Testall,
            A::Waitall { count: 2 },
            A::Finalize,
        ]
    );
    assert!(actions(&t, 1).contains(&A::Test {
        src: Some(2),
        dst: Some(1),
        tag: Some(12)
    }));
    // p2p.c's sends: 10r ints from ranks 1 and 2; 50 doubles and 3 chars; 4 ints from
    // ranks 1 and 2; two sendrecvs a rank (6 ints, 2 shorts); Ssend and Issend of 9 ints;
    // 2 longs a rank. The send to MPI_PROC_NULL is no message.
    let bytes = 40 + 80 + 400 + 3 + 2 * 16 + 3 * (24 + 4) + 2 * 36 + 3 * 16;
    assert_eq!(totals(&t), (2 + 2 + 2 + 6 + 2 + 3, bytes));
}

#[test]
fn proc_null_sends_are_no_messages() {
    let t = load_ok("procnull/procnull.txt");
    use Action as A;
    assert_eq!(
        actions(&t, 0),
        vec![
            A::Init,
            A::ProcNullSend {
                kind: SendKind::Isend,
                tag: 3,
                bytes: 16
            },
            A::Wait {
                src: Some(0),
                dst: None,
                tag: Some(3)
            },
            A::ProcNullSend {
                kind: SendKind::Send,
                tag: 3,
                bytes: 16
            },
            A::Finalize,
        ]
    );
    assert_eq!(totals(&t), (0, 0));
}

#[test]
fn location_lines_give_the_call_site_of_the_next_action() {
    let t = load_ok("location/location.txt");
    let (a, loc) = &t.ranks[0][1];
    assert_eq!(
        *a,
        Action::Send {
            dst: 1,
            tag: 7,
            bytes: 1024
        }
    );
    assert_eq!(loc.line, 4);
    assert_eq!(
        loc.call,
        Some(CallSite {
            file: "ring.c".into(),
            line: 9
        })
    );
    assert_eq!(t.ranks[0][0].1.call.as_ref().map(|c| c.line), Some(5));
    assert!(t.ranks.iter().flatten().all(|(_, l)| l.call.is_some()));
    // Without -trace-call-location at compile time the file is empty (two spaces).
    let r = parse_rank_file(
        "l",
        "0 location  0\n0 init\n0 location a b.c 12\n0 finalize\n",
        0,
        1,
    )
    .unwrap();
    assert_eq!(
        r[0].1.call,
        Some(CallSite {
            file: String::new(),
            line: 0
        })
    );
    assert_eq!(
        r[1].1.call,
        Some(CallSite {
            file: "a b.c".into(),
            line: 12
        })
    );
    assert_eq!(r[1].1.line, 4);
}

#[test]
fn sleeps_and_computations() {
    let t = load_ok("sleep/sleep.txt");
    assert_eq!(
        actions(&t, 0),
        vec![
            Action::Init,
            Action::Sleep { seconds: 2.0 },
            Action::Sleep { seconds: 0.0015 },
            Action::Finalize
        ]
    );
    // C++ streams print large amounts in exponent form.
    let r = parse_rank_file(
        "c",
        "0 init\n0 compute 1.23457e+06\n0 waitall 1e+06\n0 finalize\n",
        0,
        1,
    )
    .unwrap();
    assert_eq!(r[1].0, Action::Compute { flops: 1.23457e6 });
    assert_eq!(r[2].0, Action::Waitall { count: 1_000_000 });
}

#[test]
fn derived_datatypes_and_reduce_scatter_block_are_refused() {
    let e = load(&fixture("derived/derived.txt")).unwrap_err();
    assert!(e.contains("_rank-1.txt:2: "), "{e}");
    assert!(e.contains("datatype -1"), "{e}");
    let e = load(&fixture("rsblock/rsblock.txt")).unwrap_err();
    assert!(e.contains("_rank-1.txt:2: "), "{e}");
    assert!(e.contains("MPI_Reduce_scatter_block"), "{e}");
    // -1 where MPI ignores the argument: the root's side elsewhere.
    let t = "1 init\n1 gather 2 9 0 1 -1\n1 scatter 9 2 0 -1 1\n1 finalize\n";
    let r = parse_rank_file("g", t, 1, 2).unwrap();
    assert_eq!(
        r[1].0,
        Action::Gather {
            send_bytes: 8,
            recv_bytes: 0,
            root: 0
        }
    );
    assert_eq!(
        r[2].0,
        Action::Scatter {
            send_bytes: 0,
            recv_bytes: 8,
            root: 0
        }
    );
    let e = parse_rank_file("g", &t.replace("1 ", "0 "), 0, 2).unwrap_err();
    assert_eq!(located(&e, "g"), Some(2), "{e}");
}

#[test]
fn every_error_names_its_file_and_line() {
    // (text of rank 1's file in a world of 3, the line the error must name, a word of it)
    let cases: &[(&str, usize, &str)] = &[
        ("1 init\n1 frobnicate 3\n1 finalize\n", 2, "unknown action"),
        (
            "1 init\n1 send 0 7 256\n1 finalize\n",
            2,
            "4 argument(s) expected, found 3",
        ),
        ("1 init\n1 send 0 7 256 1 1\n1 finalize\n", 2, "found 5"),
        (
            "1 init\n1 send 0 7 two 1\n1 finalize\n",
            2,
            "not a whole number",
        ),
        (
            "1 init\n1 send 0 7 -5 1\n1 finalize\n",
            2,
            "negative count -5",
        ),
        (
            "1 init\n1 send 3 7 5 1\n1 finalize\n",
            2,
            "outside a world of 3",
        ),
        (
            "1 init\n1 recv -1 7 5 1\n1 finalize\n",
            2,
            "outside a world of 3",
        ),
        ("1 init\n1 send 0 -444 5 1\n1 finalize\n", 2, "negative"),
        ("1 init\n1 recv 0 -3 5 1\n1 finalize\n", 2, "MPI_ANY_TAG"),
        (
            "1 init\n1 send 0 7 5 60\n1 finalize\n",
            2,
            "unknown datatype id 60",
        ),
        (
            "1 init\n1 send 0 7 5 x\n1 finalize\n",
            2,
            "not a datatype id",
        ),
        (
            "1 init\n1 send 0 7 99999999999999999999 1\n1 finalize\n",
            2,
            "not a whole",
        ),
        (
            "1 init\n1 send 0 7 9999999999999999999 0\n1 finalize\n",
            2,
            "overflow",
        ),
        (
            "1 init\n\n# a comment\n2 barrier\n1 finalize\n",
            4,
            "rank 2 in rank 1's file",
        ),
        ("1 init\nx barrier\n1 finalize\n", 2, "start with a rank"),
        ("1 init\n1\n1 finalize\n", 2, "no action"),
        ("1 init\n1 compute nan\n1 finalize\n", 2, "finite"),
        ("1 init\n1 compute -1\n1 finalize\n", 2, "non-negative"),
        ("1 init\n1 waitall 2.5\n1 finalize\n", 2, "request count"),
        ("1 init\n1 bcast 4 3 1\n1 finalize\n", 2, "root 3"),
        (
            "1 init\n1 alltoallv 3 1 1 1 3 1 1 1 1\n1 finalize\n",
            2,
            "sub-communicator",
        ),
        ("1 init\n1 gatherv 1 1 1 0 1 1\n1 finalize\n", 2, "found 6"),
        ("1 init\n1 Start 0 1 4 1\n1 finalize\n", 2, "persistent"),
        (
            "1 init\n1 ibcast 4 0 1\n1 finalize\n",
            2,
            "a non-blocking collective (MPI_Ibcast), not supported",
        ),
        (
            "1 init\n1 Win_fence 0\n1 finalize\n",
            2,
            "rank 1: unknown action \"Win_fence\": not an MPI call the replay runs",
        ),
        ("1 init\n1 location f.c\n1 finalize\n", 2, "location takes"),
        ("1 init\n1 location f.c x\n1 finalize\n", 2, "line number"),
        (
            "1 init\n1 location f.c 3\n1 location f.c 4\n1 finalize\n",
            3,
            "second location",
        ),
        (
            "1 init\n1 finalize\n1 location f.c 3\n",
            3,
            "location line with no action",
        ),
        ("1 barrier\n1 finalize\n", 1, "not init"),
        ("1 init\n1 finalize\n1 barrier\n", 3, "after its finalize"),
        ("1 init\n1 barrier\n", 2, "without finalize"),
        ("1 init\n1 barrier\n1 finalize", 3, "cut short"),
        ("1 init\n1 barr", 2, "cut short"),
        ("", 1, "no actions for rank 1"),
        ("# nothing\n\n", 2, "no actions for rank 1"),
    ];
    for &(text, line, word) in cases {
        let e = parse_rank_file("r.txt", text, 1, 3).unwrap_err();
        assert_eq!(located(&e, "r.txt"), Some(line), "{text:?}: {e}");
        assert!(e.contains(word), "{text:?}: {e}");
    }
    // The one-file layout.
    let cases: &[(&str, Option<usize>, usize, &str)] = &[
        (
            "0 init\n1 init\n0 finalize\n",
            None,
            2,
            "rank 1's actions end",
        ),
        (
            "0 init\n0 finalize\n2 init\n2 finalize\n",
            None,
            4,
            "no actions for rank 1",
        ),
        ("0 init\n0 finalize\n", Some(2), 2, "no actions for rank 1"),
        (
            "0 init\n0 finalize\n",
            Some(5),
            1,
            "some ranks have no actions",
        ),
        (
            "0 init\n1 init\n0 finalize\n1 finalize\n",
            Some(1),
            2,
            "outside a world of 1",
        ),
        ("0 init\n4000000000 init\n", None, 2, "only 2 lines"),
        (
            "0 init\n0 send 1 0 1 1\n0 finalize\n",
            None,
            2,
            "outside a world of 1",
        ),
        ("", None, 1, "no actions"),
    ];
    for &(text, hint, line, word) in cases {
        let e = parse_one_file("one.txt", text, hint).unwrap_err();
        assert_eq!(located(&e, "one.txt"), Some(line), "{text:?}: {e}");
        assert!(e.contains(word), "{text:?}: {e}");
    }
    assert_eq!(
        located(&utf8("u", b"0 init\n0 \xff\n").unwrap_err(), "u"),
        Some(2)
    );
}

/// A scratch directory, removed when dropped.
struct Scratch(PathBuf);
impl Scratch {
    fn new(tag: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("exanet-simgrid-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
    fn write(&self, name: &str, text: &[u8]) -> PathBuf {
        let p = self.0.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
}
impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn load_errors_name_file_and_line() {
    let s = Scratch::new("load");
    s.write("t_files/r0.txt", b"0 init\n0 send 1 0 4 1\n0 finalize\n");
    s.write("t_files/r1.txt", b"1 init\n1 recv 0 0 4 1\n1 finalize\n");
    let ok = s.write("ok.txt", b"t_files/r0.txt\nt_files/r1.txt\n");
    assert_eq!(totals(&load(&ok).unwrap()), (1, 16));
    let missing = s.write("missing.txt", b"t_files/r0.txt\n\nt_files/r9.txt\n");
    let name = missing.display().to_string();
    let e = load(&missing).unwrap_err();
    assert_eq!(located(&e, &name), Some(3), "{e}");
    assert!(
        e.contains("cannot read rank 1's file t_files/r9.txt"),
        "{e}"
    );
    let empty = s.write("empty.txt", b"\n\n");
    let e = load(&empty).unwrap_err();
    assert_eq!(located(&e, &empty.display().to_string()), Some(1), "{e}");
    assert!(e.contains("empty"), "{e}");
    // A rank file under the wrong line of the index.
    let swapped = s.write("swapped.txt", b"t_files/r1.txt\nt_files/r0.txt\n");
    let e = load(&swapped).unwrap_err();
    assert!(
        e.contains("r1.txt:1: a line of rank 1 in rank 0's file"),
        "{e}"
    );
    // A bad rank file names itself, not the index.
    s.write("t_files/bad.txt", b"1 init\n1 recv 0 0 4 \xff\n");
    let bad = s.write("bad.txt", b"t_files/r0.txt\nt_files/bad.txt\n");
    let e = load(&bad).unwrap_err();
    assert!(e.contains("bad.txt:2: not UTF-8"), "{e}");
    // One file with every rank, given directly or through a one-line index.
    let one = s.write(
        "t_files/one.txt",
        b"0 init\n1 init\n1 recv 0 0 4 1\n0 send 1 0 4 1\n0 finalize\n1 finalize\n",
    );
    assert_eq!(load(&one).unwrap().size(), 2);
    let idx1 = s.write("one-index.txt", b"t_files/one.txt\n");
    let t = load(&idx1).unwrap();
    assert_eq!(
        t.ranks[1][1].1,
        Loc {
            file: one.display().to_string(),
            line: 3,
            call: None
        }
    );
    let nowhere = s.0.join("nowhere.txt");
    let e = load(&nowhere).unwrap_err();
    assert!(
        e.starts_with(&format!("{}: cannot read", nowhere.display())),
        "{e}"
    );
}

/// Seed of the mutation test's generator (printed by it).
const FUZZ_SEED: u64 = 0x5147_7261;

/// Parse `bytes` as rank `rank`'s file of a world of `n` and as a one-file trace; panic
/// with the input if anything panics, or if an error does not name `fuzz.txt` and a line.
fn no_panic(bytes: &[u8], rank: u32, n: usize, what: &str) -> bool {
    let run = || -> Vec<Result<usize, String>> {
        let text = match utf8("fuzz.txt", bytes) {
            Ok(t) => t,
            Err(e) => return vec![Err(e)],
        };
        vec![
            parse_rank_file("fuzz.txt", text, rank, n).map(|v| v.len()),
            parse_one_file("fuzz.txt", text, None).map(|t| t.size()),
            parse_one_file("fuzz.txt", text, Some(n)).map(|t| t.size()),
        ]
    };
    let results = std::panic::catch_unwind(run).unwrap_or_else(|_| {
        panic!(
            "{what} (seed {FUZZ_SEED:#x}) panicked on {:?}",
            String::from_utf8_lossy(bytes)
        )
    });
    for r in &results {
        if let Err(e) = r {
            assert!(
                located(e, "fuzz.txt").is_some(),
                "{what}: unlocated error {e:?}"
            );
        }
    }
    results[0].is_ok()
}

#[test]
fn truncated_and_mutated_traces_never_panic() {
    println!("seed {FUZZ_SEED:#x}");
    let p2p = rank_files("p2p/p2p.txt");
    let one = rank_files("ring-nocompute/ring-one.txt");
    let inputs = [(p2p[1].1.clone(), 1u32, 3usize), (one[0].1.clone(), 0, 4)];
    // Every proper prefix of a file is refused: SimGrid ends each line, and each rank, whole.
    for (text, rank, n) in &inputs {
        for cut in 0..text.len() {
            let text = &text.as_bytes()[..cut];
            no_panic(text, *rank, *n, "truncation");
            let t = std::str::from_utf8(text).unwrap();
            assert!(
                parse_rank_file("fuzz.txt", t, *rank, *n).is_err(),
                "cut at {cut}"
            );
            assert!(parse_one_file("fuzz.txt", t, None).is_err(), "cut at {cut}");
        }
    }
    let tokens: &[&[u8]] = &[
        b"-1",
        b"-333",
        b"-444",
        b"0",
        b"3",
        b"4",
        b"60",
        b"4294967296",
        b"18446744073709551616",
        b"1e308",
        b"nan",
        b"inf",
        b"-0",
        b"2.5",
        b"",
        b" ",
        b"\n",
        b"location",
        b"init",
        b"finalize",
        b"alltoallv",
        b"gatherv",
        b"send",
        b"#",
        b"\xff",
        b"\xe2\x82",
    ];
    let mut rng = Mt64::new(FUZZ_SEED);
    let mut below = |n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
    let mut parsed = 0;
    for round in 0..3000 {
        let (text, rank, n) = &inputs[round % inputs.len()];
        let mut b = text.as_bytes().to_vec();
        for _ in 0..1 + below(3) {
            let at = below(b.len() + 1);
            match below(5) {
                0 if at < b.len() => b[at] = b" -0123456789\n\te.#x\xff"[below(18)],
                1 => {
                    let end = (at + 1 + below(8)).min(b.len());
                    b.drain(at.min(end)..end);
                }
                2 => {
                    let t = tokens[below(tokens.len())];
                    b.splice(at..at, t.iter().copied());
                }
                3 => {
                    // Replace the token around `at`.
                    let is_sep = |c: &u8| *c == b' ' || *c == b'\n';
                    let start = b[..at].iter().rposition(is_sep).map_or(0, |i| i + 1);
                    let end = b[at..].iter().position(is_sep).map_or(b.len(), |i| at + i);
                    let t = tokens[below(tokens.len())];
                    b.splice(start..end, t.iter().copied());
                }
                _ => {
                    // Duplicate a line.
                    let lines: Vec<&[u8]> = b.split_inclusive(|&c| c == b'\n').collect();
                    let l = lines[below(lines.len())].to_vec();
                    let start = b[..at]
                        .iter()
                        .rposition(|&c| c == b'\n')
                        .map_or(0, |i| i + 1);
                    b.splice(start..start, l);
                }
            }
        }
        if no_panic(&b, *rank, *n, "mutation") {
            parsed += 1;
        }
    }
    println!("3000 mutated traces, {parsed} still parsed as a rank file");
}

/// The actions and call sites of every rank (the locations' files and lines differ between
/// layouts).
fn without_places(t: &TiTrace) -> Vec<Vec<(Action, Option<CallSite>)>> {
    t.ranks
        .iter()
        .map(|r| r.iter().map(|(a, l)| (a.clone(), l.call.clone())).collect())
        .collect()
}

#[test]
fn a_written_trace_reads_back_as_the_same_actions() {
    for index in [
        "ring/ti.txt",
        "colls/colls.txt",
        "p2p/p2p.txt",
        "procnull/procnull.txt",
        "location/location.txt",
        "sleep/sleep.txt",
        "datatypes/datatypes.txt",
    ] {
        let t = load_ok(index);
        let text = write::write(&t).unwrap_or_else(|e| panic!("{index}: {e}"));
        let back = parse_one_file("written", &text, Some(t.size()))
            .unwrap_or_else(|e| panic!("{index}: {e}"));
        assert_eq!(without_places(&back), without_places(&t), "{index}");
        // and once more: the text is a fixed point
        assert_eq!(write::write(&back).unwrap(), text, "{index}");
    }
    // every size in bytes, whatever datatype it was read with: MPI_BYTE counts
    let t = parse_one_file(
        "t",
        "0 init\n0 isend 0 1 3 0\n0 waitall 1\n0 finalize\n",
        None,
    )
    .unwrap();
    assert_eq!(
        write::write(&t).unwrap(),
        "0 init\n0 isend 0 1 24 6\n0 waitall 1\n0 finalize\n"
    );
}

#[test]
fn actions_the_format_has_no_line_for_are_not_written() {
    let loc = Loc {
        file: "x".into(),
        line: 3,
        call: None,
    };
    let t = TiTrace {
        ranks: vec![vec![(Action::ComputeTime { seconds: 1.0 }, loc)]],
        comms: Vec::new(),
    };
    let e = write::write(&t).unwrap_err();
    assert!(
        e.contains("rank 0, x:3") && e.contains("ComputeTime"),
        "{e}"
    );
}
