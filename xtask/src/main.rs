//! `cargo xtask ...`: see the crate docs of the `xtask` library.
fn main() -> std::process::ExitCode {
    xtask::run(std::env::args_os())
}
