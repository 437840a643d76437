//! `exanet._native`: the Rust half of the Python module (the Python half, python/exanet/,
//! builds on it; docs/python.md).
//!
//! - [`Config`]: a configuration built from a file's text, a dict (as JSON) and `--set`
//!   assignments, and validated, by the library's own code (`Config::from_text_unvalidated`,
//!   `config_set::apply`, `Config::validate`): a bad field raises `ConfigError`, a
//!   `ValueError` that names the field with the message the command line prints.
//! - [`call`]: a command line (without `exanet`) run in this process by `cli::embed` on a
//!   `Config`: the same parsing, checks and runs as the binary. It gives back the JSON
//!   documents the command made. The run goes on in a thread of its own while the caller's
//!   thread, the GIL released, waits; every 100 ms it takes the GIL to look for a signal
//!   (Ctrl-C: the run is cancelled, `progress::cancel`, and `KeyboardInterrupt` raised once
//!   it has stopped) and to hand the progress to the caller's callback. Other Python threads
//!   run meanwhile.

use exanet::cli::embed::{self, Failure};
use exanet::config_set::Assignment;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::sync::mpsc;
use std::time::Duration;

create_exception!(
    _native,
    ConfigError,
    PyValueError,
    "A configuration field (or file) is invalid: the field is `.field`, the message the \
     command line prints."
);
create_exception!(
    _native,
    InputError,
    PyValueError,
    "A command's arguments or configuration are refused (the command line's exit status 2)."
);
create_exception!(
    _native,
    RunError,
    PyRuntimeError,
    "A run failed (the command line's exit status 1)."
);

fn config_error(py: Python<'_>, e: exanet::config::ConfigError) -> PyErr {
    let err = ConfigError::new_err(e.to_string());
    let _ = err.value(py).setattr("field", e.field.clone());
    err
}

/// A validated exanet configuration (the Rust `exanet::config::Config`).
#[pyclass(module = "exanet._native", frozen, eq)]
#[derive(Clone, PartialEq)]
struct Config {
    inner: exanet::config::Config,
}

#[pymethods]
impl Config {
    /// The defaults (the thesis's hardware).
    #[staticmethod]
    fn defaults() -> Config {
        Config {
            inner: exanet::config::Config::default(),
        }
    }

    /// A configuration file's text, TOML or (`json`) JSON; `name` heads its errors. Not
    /// validated until [`Config::with_sets`].
    #[staticmethod]
    fn parse(py: Python<'_>, text: &str, json: bool, name: &str) -> PyResult<Config> {
        exanet::config::Config::from_text_unvalidated(name, text, json)
            .map(|inner| Config { inner })
            .map_err(|e| config_error(py, e))
    }

    /// A file's configuration (`.toml` or `.json`), not validated until
    /// [`Config::with_sets`].
    #[staticmethod]
    fn read(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Config> {
        exanet::config::Config::from_file_unvalidated(&path)
            .map(|inner| Config { inner })
            .map_err(|e| config_error(py, e))
    }

    /// This configuration with the `(field, value)` assignments applied in order (values as
    /// `--set` reads them), then validated as the command line validates a run's.
    fn with_sets(&self, py: Python<'_>, sets: Vec<(String, String)>) -> PyResult<Config> {
        let sets: Vec<Assignment> = sets
            .into_iter()
            .map(|(key, value)| Assignment { key, value })
            .collect();
        let inner =
            exanet::config_set::apply(&self.inner, &sets).map_err(|e| config_error(py, e))?;
        inner.validate().map_err(|e| config_error(py, e))?;
        Ok(Config { inner })
    }

    /// Every field, as JSON text.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.inner).expect("a configuration serialises")
    }

    /// Every field, as a TOML document (what `exanet config --print` prints, less the
    /// comments).
    fn to_toml(&self) -> String {
        self.inner.to_toml()
    }
}

/// Whether this module was built with the Verilated RTL (co-simulation).
#[pyfunction]
fn rtl_built_in() -> bool {
    exanet::cosim::rtl::built_tops().iter().all(|&(_, b)| b)
}

/// Runs the command line `args` (without `exanet`) on `config` (or the defaults) and gives
/// back the JSON documents it made, as JSON text (a list). `progress(what, done, total,
/// message)` is called every 100 ms or so while it runs.
#[pyfunction]
#[pyo3(signature = (args, config=None, progress=None))]
fn call(
    py: Python<'_>,
    args: Vec<String>,
    config: Option<PyRef<'_, Config>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let (tx, rx) = mpsc::channel();
    // (a `Receiver` is not `Sync`: the waits below borrow it from inside `detach`)
    let rx = std::sync::Mutex::new(rx);
    let cfg = config.map(|c| c.inner.clone());
    let worker = std::thread::Builder::new()
        .name("exanet".into())
        .stack_size(64 << 20)
        .spawn(move || {
            let _ = tx.send(embed::call(&args, cfg));
        })
        .map_err(|e| RunError::new_err(format!("cannot start the run's thread: {e}")))?;
    let outcome = loop {
        match py.detach(|| lock(&rx).recv_timeout(Duration::from_millis(100))) {
            Ok(r) => break r,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(RunError::new_err("the run's thread ended without a result"))
            }
        }
        let stop =
            py.check_signals()
                .and_then(|()| match (&progress, exanet::progress::watched()) {
                    (Some(cb), Some(s)) => cb
                        .call1(py, (s.what, s.position, s.length, s.message))
                        .map(|_| ()),
                    _ => Ok(()),
                });
        if let Err(e) = stop {
            // a signal (KeyboardInterrupt) or the callback's own exception: stop the run, wait
            // for it to unwind, then raise
            exanet::progress::cancel(true);
            let _ = py.detach(|| lock(&rx).recv());
            let _ = worker.join();
            exanet::progress::cancel(false);
            return Err(e);
        }
    };
    let _ = worker.join();
    match outcome {
        Ok(o) if o.success => {
            Ok(serde_json::to_string(&o.documents).expect("JSON values serialise"))
        }
        Ok(_) => Err(RunError::new_err("the command exited with status 1")),
        Err(Failure::Command(e)) if e.code == 2 => Err(InputError::new_err(e.message)),
        Err(Failure::Command(e)) => Err(RunError::new_err(e.message)),
        Err(Failure::Cancelled) => Err(RunError::new_err("the run was cancelled")),
        Err(Failure::Panicked(m)) => Err(PyRuntimeError::new_err(format!(
            "exanet panicked (a bug: please report it with the command line): {m}"
        ))),
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Config>()?;
    m.add_function(wrap_pyfunction!(call, m)?)?;
    m.add_function(wrap_pyfunction!(rtl_built_in, m)?)?;
    m.add("ConfigError", m.py().get_type::<ConfigError>())?;
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add("RunError", m.py().get_type::<RunError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
