//! The one error type of the wave module.

use std::fmt;
use std::io;

/// What went wrong while writing or reading a VCD file.
#[derive(Debug)]
#[non_exhaustive]
pub enum WaveError {
    /// A file could not be opened, read or written.
    Io {
        /// The file (or `<output>` for a writer's sink).
        file: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// A VCD file is not valid VCD, or not VCD that can be compared.
    Malformed {
        /// The file.
        file: String,
        /// 1-based line where the problem was found, when known.
        line: Option<u64>,
        /// What is wrong.
        message: String,
    },
    /// [`super::VcdWriter`] was given declarations or samples it cannot write.
    Usage(String),
}

impl WaveError {
    pub(crate) fn malformed(file: &str, line: Option<u64>, message: impl Into<String>) -> Self {
        WaveError::Malformed {
            file: file.to_string(),
            line,
            message: message.into(),
        }
    }

    pub(crate) fn io(file: &str, source: io::Error) -> Self {
        WaveError::Io {
            file: file.to_string(),
            source,
        }
    }
}

impl fmt::Display for WaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaveError::Io { file, source } => write!(f, "{file}: {source}"),
            WaveError::Malformed {
                file,
                line: Some(line),
                message,
            } => {
                write!(f, "{file}: line {line}: {message}")
            }
            WaveError::Malformed {
                file,
                line: None,
                message,
            } => write!(f, "{file}: {message}"),
            WaveError::Usage(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for WaveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WaveError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
