//! Traces: one JSON line per frame with every published bag, so two runs can be diffed.

use std::io::Write;

use crate::runtime::Runtime;

/// The line for the runtime's current frame.
pub fn line(runtime: &Runtime) -> String {
    serde_json::json!({ "frame": runtime.frame(), "scene": runtime.scene(), "bags": runtime.bags() }).to_string()
}

/// Writes trace lines to a file as frames complete.
pub struct TraceWriter {
    out: std::io::BufWriter<std::fs::File>,
}

impl TraceWriter {
    /// Creates (or truncates) the trace file.
    pub fn create(path: &std::path::Path) -> std::io::Result<TraceWriter> {
        Ok(TraceWriter {
            out: std::io::BufWriter::new(std::fs::File::create(path)?),
        })
    }

    /// Appends the current frame.
    pub fn record(&mut self, runtime: &Runtime) -> std::io::Result<()> {
        writeln!(self.out, "{}", line(runtime))
    }

    /// Flushes to disk.
    pub fn finish(mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
