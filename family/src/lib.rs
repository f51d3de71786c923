//! The corrected Intel family: the crate `visa` as `cargo xtask regen --spec
//! ../shared/visa-docs/current` writes it, built here so that `cargo test --workspace` runs the
//! family's tests (`tests/`). The generated modules come from the build script (`OUT_DIR`);
//! the hand-written runtime is the workspace's, taken from `generated/src` in place. The root
//! below mirrors `generated/src/lib.rs`.

#![no_std]
extern crate alloc;
#[cfg(test)]
extern crate std;

#[path = "../../generated/src/asm/mod.rs"]
pub mod asm;
#[cfg(feature = "machine")]
#[path = "../../generated/src/machine/mod.rs"]
pub mod machine;
#[path = "../../generated/src/object/mod.rs"]
pub mod object;
#[path = "../../generated/src/runtime/mod.rs"]
pub mod runtime;
#[cfg(test)]
#[path = "../../generated/src/test_support.rs"]
mod test_support;

include!(concat!(env!("OUT_DIR"), "/generated.rs"));

pub use generated::*;
pub use runtime::{DecodeError, DecodeErrorInfo, DecodeErrorKind, ValidationError};
