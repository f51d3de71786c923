//! The machine that runs vISA kernels (issue 21). This file is a placeholder of the launch
//! branch until the machine's skeleton lands: it only declares launch's modules.

pub mod memory;
pub mod messages;
