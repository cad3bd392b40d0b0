//! `volley serve`: the explorer in a browser. A page (compiled into the
//! binary, no build step) and the JSON API it uses, on loopback by default.
//!
//! The API answers what the command line answers, through the same code:
//! `GET /api/dist` is `volley dist --format json` (or `format=csv`), its
//! errors the same words with status 400; `/api/dist/stream` streams the
//! progress of a sampled run as server-sent events and stops the run when the
//! browser leaves; `/api/spec` gives the view as a spec `volley run` reproduces.
//! Every request is bounded in samples and in time (flags, defaults stated in
//! `volley serve --help`), computes on the shared rayon pool behind a limit of
//! concurrent requests, and deterministic answers (the same query, the same
//! seed) are cached. The server serves its own assets and the reports folder
//! and nothing else, never runs a shell and never writes a file.

mod api;
mod files;
#[cfg(test)]
mod tests;

use crate::error::bad_input;
use std::net::SocketAddr;
use std::path::PathBuf;

pub use api::{Limits, router};

/// The options of `volley serve`.
pub struct Options {
    pub host: String,
    pub port: u16,
    pub reports: PathBuf,
    pub max_samples: u64,
    pub timeout_seconds: u64,
    pub concurrent: usize,
}

/// Serves until Ctrl-C.
pub fn run(options: Options) -> anyhow::Result<()> {
    if options.timeout_seconds == 0 {
        return Err(bad_input("--timeout must be at least 1 second, such as 60"));
    }
    if options.concurrent == 0 {
        return Err(bad_input("--concurrent must be at least 1, such as 4"));
    }
    let host = if options.host == "localhost" { "127.0.0.1" } else { options.host.as_str() };
    let ip: std::net::IpAddr = host.parse().map_err(|_| {
        bad_input(format!(
            "--host {}: expected an IP address, such as 127.0.0.1 or 0.0.0.0, or localhost",
            options.host
        ))
    })?;
    let address = SocketAddr::new(ip, options.port);
    let limits = Limits {
        max_samples: options.max_samples,
        timeout: std::time::Duration::from_secs(options.timeout_seconds),
        concurrent: options.concurrent,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| bad_input(format!("--host/--port: cannot listen on {address}: {e}")))?;
        let bound = listener.local_addr()?;
        if !ip.is_loopback() {
            eprintln!(
                "volley: warning: listening on {bound}, which other machines may reach; the explorer has no \
                 login. Use --host 127.0.0.1 to keep it to this machine."
            );
        }
        println!("volley explorer at http://{bound}/ (Ctrl-C stops it)");
        axum::serve(listener, router(options.reports, limits))
            .with_graceful_shutdown(async {
                // A failure to install the handler leaves only a kill to stop it.
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        eprintln!("volley: explorer stopped");
        Ok(())
    })
}
