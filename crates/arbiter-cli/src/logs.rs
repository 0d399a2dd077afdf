//! The server's log (`serve`, `demo`): `tracing` to standard error, the level from `RUST_LOG`
//! (default: Arbiter's own at info, the libraries' warnings; `RUST_LOG=tower_http=debug` adds a
//! line per request). Other commands start no logger: their output is their answer.

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        EnvFilter::new("warn,arbiter_web=info,arbiter_store=info,arbiter_cli=info")
    });
    // A second call (tests that serve twice in one process) keeps the first logger.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
