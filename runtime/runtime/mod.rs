//! Hand-written runtime of the `visa` crate: the operand model of the vISA operands chapter,
//! the data types, and the binary codec primitives that generated code builds on.
//!
//! Nothing here is generated; generated modules only reference it.

pub mod codec;
pub mod decoder;
pub mod encoder;
pub mod error;
pub mod functions;
pub mod inline_list;
pub mod lanes;
pub mod object;
pub mod operand;
pub mod platform;
pub mod text;
pub mod value;
pub mod visit;

pub use codec::{Decode, Encode, Reader, Staging};
pub use decoder::Decoder;
pub use encoder::Encoder;
pub use error::{DecodeError, DecodeErrorInfo, DecodeErrorKind, ValidationError};
pub use inline_list::{CapacityError, InlineList};
pub use lanes::{Lanes, Value};
pub use operand::{
    DataType, ExecSize, Immediate, OperandClass, PredicateCombine, PredicateControl, RawOperand,
    Region, StateClass, VectorOperand,
};
pub use platform::{IntelPlatform, UnknownPlatform, INTEL_PLATFORMS};
pub use value::Rounding;
pub use visit::{OperandTypes, OperandVisitor, TypeMap};
