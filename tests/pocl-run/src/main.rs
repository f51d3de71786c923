//! `pocl-run`: the oracle of the interpreter tests. It runs one OpenCL C kernel on pocl (the
//! CPU implementation "Portable Computing Language", through the ICD loader) with the command
//! line of `visa run`, the `.cl` source in place of the `.isa`:
//!
//! ```text
//! pocl-run K.cl --kernel K --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--platform P] ARG...
//!   ARG: --buffer IN.bin:OUT.bin   a global buffer: its bytes start as IN.bin's, OUT.bin gets them after the run
//!        --constant IN.bin:OUT.bin a `constant` pointer parameter, likewise
//!        --scalar TYPE:VALUE       i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 (i32:5, u64:7, f32:1.5)
//!        --local-mem BYTES         a `local` pointer parameter of BYTES bytes
//!        --image W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]
//!                                  an image (1D, 2D or 3D) of FORMAT (r-f32, rgba-f32, rgba-unorm8,
//!                                  rgba-u8, r-u32, ...: `visa::machine::image`'s names), texels
//!                                  packed; with OUT.bin it is written and read back after the run
//!        --sampler normalized|unnormalized,ADDRESS,FILTER
//!                                  a `sampler_t` (clCreateSampler): ADDRESS none, clamp_to_edge,
//!                                  clamp, repeat or mirrored_repeat; FILTER nearest or linear
//! ```
//!
//! One ARG per kernel parameter, in order. `--platform` (the vISA platform of `visa run`) is
//! accepted and ignored: pocl runs the source. Exit status 0 on success, 1 when OpenCL fails
//! (no pocl platform, a build error with its log, a launch error), 2 on a bad command line.

use opencl3::command_queue::CommandQueue;
use opencl3::context::Context;
use opencl3::device::{Device, CL_DEVICE_TYPE_ALL};
use opencl3::kernel::Kernel;
use opencl3::memory::{
    Buffer, ClMem, Image, CL_FLOAT, CL_MEM_COPY_HOST_PTR, CL_MEM_OBJECT_IMAGE1D,
    CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE3D, CL_MEM_READ_ONLY, CL_MEM_READ_WRITE, CL_R, CL_RG,
    CL_RGBA, CL_SIGNED_INT32, CL_UNORM_INT8, CL_UNSIGNED_INT32, CL_UNSIGNED_INT8,
};
use opencl3::memory::{
    Sampler, CL_ADDRESS_CLAMP, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_MIRRORED_REPEAT,
    CL_ADDRESS_NONE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, CL_FILTER_NEAREST,
};
use opencl3::platform::get_platforms;
use opencl3::program::Program;
use opencl3::types::CL_BLOCKING;
use opencl3::types::{
    cl_addressing_mode, cl_channel_order, cl_channel_type, cl_filter_mode, cl_image_desc,
    cl_image_format,
};
use std::ffi::c_void;
use std::path::PathBuf;
use std::process::ExitCode;

/// One kernel argument as the command line gives it.
#[derive(Debug, PartialEq)]
enum Arg {
    Buffer {
        input: PathBuf,
        output: PathBuf,
    },
    Scalar(Scalar),
    LocalMem(usize),
    Image {
        size: [usize; 3],
        dims: usize,
        format: &'static str,
        input: PathBuf,
        output: Option<PathBuf>,
    },
    Sampler {
        normalized: bool,
        address: cl_addressing_mode,
        filter: cl_filter_mode,
    },
}

/// `normalized|unnormalized,ADDRESS,FILTER` of `--sampler` (`visa run`'s spelling).
fn sampler(v: &str) -> Result<Arg, Error> {
    let bad = |why: &str| {
        usage(format!(
            "--sampler {v}: {why}; expected normalized|unnormalized,\
             none|clamp_to_edge|clamp|repeat|mirrored_repeat,nearest|linear"
        ))
    };
    let parts: Vec<&str> = v.split(',').collect();
    let [coords, address, filter] = parts[..] else {
        return Err(bad("not three parts"));
    };
    let normalized = match coords {
        "normalized" => true,
        "unnormalized" => false,
        _ => return Err(bad("unknown coordinates")),
    };
    let address = match address {
        "none" => CL_ADDRESS_NONE,
        "clamp_to_edge" => CL_ADDRESS_CLAMP_TO_EDGE,
        "clamp" => CL_ADDRESS_CLAMP,
        "repeat" => CL_ADDRESS_REPEAT,
        "mirrored_repeat" => CL_ADDRESS_MIRRORED_REPEAT,
        _ => return Err(bad("unknown address mode")),
    };
    let filter = match filter {
        "nearest" => CL_FILTER_NEAREST,
        "linear" => CL_FILTER_LINEAR,
        _ => return Err(bad("unknown filter")),
    };
    Ok(Arg::Sampler {
        normalized,
        address,
        filter,
    })
}

/// The image formats by `visa run`'s names: OpenCL channel order, channel type, bytes per texel.
const FORMATS: &[(&str, cl_channel_order, cl_channel_type, usize)] = &[
    ("r-f32", CL_R, CL_FLOAT, 4),
    ("rg-f32", CL_RG, CL_FLOAT, 8),
    ("rgba-f32", CL_RGBA, CL_FLOAT, 16),
    ("r-unorm8", CL_R, CL_UNORM_INT8, 1),
    ("rgba-unorm8", CL_RGBA, CL_UNORM_INT8, 4),
    ("r-u8", CL_R, CL_UNSIGNED_INT8, 1),
    ("rgba-u8", CL_RGBA, CL_UNSIGNED_INT8, 4),
    ("r-u32", CL_R, CL_UNSIGNED_INT32, 4),
    ("rgba-u32", CL_RGBA, CL_UNSIGNED_INT32, 16),
    ("r-i32", CL_R, CL_SIGNED_INT32, 4),
    ("rgba-i32", CL_RGBA, CL_SIGNED_INT32, 16),
];

/// `W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]` of `--image`.
fn image(v: &str) -> Result<Arg, Error> {
    let bad = |why: &str| {
        usage(format!(
            "--image {v}: {why}; expected W[,H[,D]]:FORMAT:IN.bin[:OUT.bin]"
        ))
    };
    let parts: Vec<&str> = v.split(':').collect();
    if !(3..=4).contains(&parts.len()) || parts.iter().any(|p| p.is_empty()) {
        return Err(bad("wrong number of parts"));
    }
    let dims = ndrange("--image", parts[0])?;
    let mut size = [1; 3];
    size[..dims.len()].copy_from_slice(&dims);
    let format = FORMATS
        .iter()
        .find(|f| f.0 == parts[1])
        .ok_or_else(|| bad("unknown image format"))?
        .0;
    Ok(Arg::Image {
        size,
        dims: dims.len(),
        format,
        input: parts[2].into(),
        output: parts.get(3).map(PathBuf::from),
    })
}

/// A scalar argument's value, in the kernel parameter's type.
#[derive(Debug, PartialEq)]
enum Scalar {
    I8(i8),
    U8(u8),
    I16(i16),
    U16(u16),
    I32(i32),
    U32(u32),
    I64(i64),
    U64(u64),
    F32(f32),
    F64(f64),
}

/// The parsed command line.
#[derive(Debug, PartialEq)]
struct Command {
    source: PathBuf,
    kernel: String,
    global: Vec<usize>,
    local: Option<Vec<usize>>,
    args: Vec<Arg>,
}

const USAGE: &str =
    "usage: pocl-run K.cl --kernel K --global X[,Y[,Z]] [--local X[,Y[,Z]]] [--platform P] \
                     [--buffer IN.bin:OUT.bin | --constant IN.bin:OUT.bin | --scalar TYPE:VALUE | --local-mem BYTES]...";

/// A failure: a bad command line (exit 2) or one that OpenCL or the files report (exit 1).
enum Error {
    Usage(String),
    Run(String),
}

fn usage(what: impl Into<String>) -> Error {
    Error::Usage(what.into())
}

fn ndrange(flag: &str, text: &str) -> Result<Vec<usize>, Error> {
    let dims: Vec<&str> = text.split(',').collect();
    if dims.is_empty() || dims.len() > 3 {
        return Err(usage(format!(
            "{flag} {text}: expected 1 to 3 sizes separated by commas"
        )));
    }
    dims.iter()
        .map(|d| match d.trim().parse::<usize>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(usage(format!(
                "{flag} {text}: `{d}` is not a positive integer"
            ))),
        })
        .collect()
}

fn scalar(text: &str) -> Result<Scalar, Error> {
    let (ty, value) = text.split_once(':').ok_or_else(|| {
        usage(format!(
            "--scalar {text}: expected TYPE:VALUE (i32:5, u64:7, f32:1.5)"
        ))
    })?;
    let bad =
        |e: &dyn std::fmt::Display| usage(format!("--scalar {text}: `{value}` is not a {ty}: {e}"));
    let int = |v: &str| -> Result<i128, Error> {
        let (neg, digits) = v.strip_prefix('-').map_or((false, v), |d| (true, d));
        let n = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(hex) => i128::from_str_radix(hex, 16),
            None => digits.parse::<i128>(),
        }
        .map_err(|e| bad(&e))?;
        Ok(if neg { -n } else { n })
    };
    macro_rules! int {
        ($variant:ident, $t:ty) => {{
            let n = int(value)?;
            <$t>::try_from(n).map(Scalar::$variant).map_err(|e| bad(&e))
        }};
    }
    match ty {
        "i8" => int!(I8, i8),
        "u8" => int!(U8, u8),
        "i16" => int!(I16, i16),
        "u16" => int!(U16, u16),
        "i32" => int!(I32, i32),
        "u32" => int!(U32, u32),
        "i64" => int!(I64, i64),
        "u64" => int!(U64, u64),
        "f32" => value.parse::<f32>().map(Scalar::F32).map_err(|e| bad(&e)),
        "f64" => value.parse::<f64>().map(Scalar::F64).map_err(|e| bad(&e)),
        _ => Err(usage(format!(
            "--scalar {text}: unknown type `{ty}` (i8 u8 i16 u16 i32 u32 i64 u64 f32 f64)"
        ))),
    }
}

fn parse(argv: &[String]) -> Result<Command, Error> {
    let mut source = None;
    let (mut kernel, mut global, mut local) = (None, None, None);
    let mut args = Vec::new();
    let mut it = argv.iter();
    while let Some(a) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| usage(format!("{flag} needs a value")))
        };
        match a.as_str() {
            "--kernel" => kernel = Some(value("--kernel")?),
            "--global" => global = Some(ndrange("--global", &value("--global")?)?),
            "--local" => local = Some(ndrange("--local", &value("--local")?)?),
            "--platform" => drop(value("--platform")?),
            // A `constant` pointer is a buffer to OpenCL; `visa run` tells the two apart.
            flag @ ("--buffer" | "--constant") => {
                let v = value(flag)?;
                let (i, o) = v
                    .split_once(':')
                    .filter(|(i, o)| !i.is_empty() && !o.is_empty())
                    .ok_or_else(|| usage(format!("{flag} {v}: expected IN.bin:OUT.bin")))?;
                args.push(Arg::Buffer {
                    input: i.into(),
                    output: o.into(),
                });
            }
            "--scalar" => args.push(Arg::Scalar(scalar(&value("--scalar")?)?)),
            "--image" => args.push(image(&value("--image")?)?),
            "--sampler" => args.push(sampler(&value("--sampler")?)?),
            "--local-mem" => {
                let v = value("--local-mem")?;
                match v.parse::<usize>() {
                    Ok(n) if n > 0 => args.push(Arg::LocalMem(n)),
                    _ => {
                        return Err(usage(format!(
                            "--local-mem {v}: expected a positive byte count"
                        )))
                    }
                }
            }
            flag if flag.starts_with('-') => return Err(usage(format!("unknown option `{flag}`"))),
            path if source.is_none() => source = Some(PathBuf::from(path)),
            extra => {
                return Err(usage(format!(
                    "unexpected argument `{extra}` (the source is already given)"
                )))
            }
        }
    }
    let source = source.ok_or_else(|| usage("no OpenCL C source given"))?;
    let kernel = kernel.ok_or_else(|| usage("--kernel K is required"))?;
    let global = global.ok_or_else(|| usage("--global X[,Y[,Z]] is required"))?;
    if let Some(l) = &local {
        if l.len() != global.len() {
            return Err(usage(format!(
                "--local has {} dimension(s), --global {}",
                l.len(),
                global.len()
            )));
        }
        if let Some(d) = (0..l.len()).find(|&d| global[d] % l[d] != 0) {
            return Err(usage(format!(
                "--global {} is not a multiple of --local {} in dimension {d}",
                global[d], l[d]
            )));
        }
    }
    Ok(Command {
        source,
        kernel,
        global,
        local,
        args,
    })
}

fn cl<T, E: std::fmt::Display>(what: &str, r: Result<T, E>) -> Result<T, Error> {
    r.map_err(|e| Error::Run(format!("{what}: {e}")))
}

/// The first device of the pocl platform (never Intel's GPU ICD, which may be installed without
/// a device); `POCL_RUN_OPENCL_PLATFORM` names another platform (a part of its name: `Oclgrind`
/// for the speed bench, through the ICD loader's `OCL_ICD_VENDORS`).
fn pocl_device() -> Result<Device, Error> {
    let platforms = cl(
        "listing OpenCL platforms (is the ICD loader libOpenCL.so.1 installed?)",
        get_platforms(),
    )?;
    let wanted = std::env::var("POCL_RUN_OPENCL_PLATFORM")
        .unwrap_or_else(|_| "Portable Computing Language".to_string());
    let mut names = Vec::new();
    for p in platforms {
        let name = p.name().unwrap_or_default();
        if name.contains(&wanted) {
            let ids = cl(
                "listing the platform's devices",
                p.get_devices(CL_DEVICE_TYPE_ALL),
            )?;
            let id = ids
                .first()
                .ok_or_else(|| Error::Run(format!("{name} has no device")))?;
            return Ok(Device::new(*id));
        }
        names.push(name);
    }
    Err(Error::Run(format!(
        "no platform named like \"{wanted}\" (pocl: install pocl-opencl-icd); platforms: {names:?}"
    )))
}

fn run(cmd: &Command) -> Result<(), Error> {
    let src = std::fs::read_to_string(&cmd.source)
        .map_err(|e| Error::Run(format!("{}: {e}", cmd.source.display())))?;
    let device = pocl_device()?;
    let context = cl("creating a context", Context::from_device(&device))?;
    let queue = cl(
        "creating a queue",
        CommandQueue::create_default(&context, 0),
    )?;
    let program = Program::create_and_build_from_source(&context, &src, "")
        .map_err(|log| Error::Run(format!("{}: build failed: {log}", cmd.source.display())))?;
    let kernel = cl(
        &format!("kernel `{}`", cmd.kernel),
        Kernel::create(&program, &cmd.kernel),
    )?;
    let params = cl("kernel parameter count", kernel.num_args())? as usize;
    if params != cmd.args.len() {
        return Err(usage(format!(
            "kernel `{}` has {params} parameter(s), {} ARG(s) given",
            cmd.kernel,
            cmd.args.len()
        )));
    }

    // Each buffer is created from its input file and lives until it is read back.
    let mut buffers: Vec<Option<(Buffer<u8>, &PathBuf)>> = Vec::new();
    // Every image lives until the end (dropping one releases it), written ones are read back.
    let mut images: Vec<(Image, [usize; 3], usize, Option<&PathBuf>)> = Vec::new();
    // Samplers live until the end too.
    let mut samplers: Vec<Sampler> = Vec::new();
    for (i, a) in cmd.args.iter().enumerate() {
        let i = i as u32;
        // SAFETY: buffers are valid for their length (COPY_HOST_PTR copies them at creation);
        // scalars have the size of the type the command line states, and OpenCL reports
        // CL_INVALID_ARG_SIZE when that is not the parameter's.
        let r = unsafe {
            match a {
                Arg::Buffer { input, output } => {
                    let mut bytes = std::fs::read(input)
                        .map_err(|e| Error::Run(format!("{}: {e}", input.display())))?;
                    if bytes.is_empty() {
                        return Err(Error::Run(format!(
                            "{}: an empty buffer (OpenCL has no zero-sized buffers)",
                            input.display()
                        )));
                    }
                    let flags = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
                    let b = Buffer::<u8>::create(
                        &context,
                        flags,
                        bytes.len(),
                        bytes.as_mut_ptr() as *mut c_void,
                    );
                    let b = cl(&format!("buffer {}", input.display()), b)?;
                    let r = kernel.set_arg(i, &b.get());
                    buffers.push(Some((b, output)));
                    r
                }
                Arg::LocalMem(n) => kernel.set_arg_local_buffer(i, *n),
                Arg::Sampler {
                    normalized,
                    address,
                    filter,
                } => {
                    #[allow(deprecated)]
                    let m = Sampler::create(&context, u32::from(*normalized), *address, *filter);
                    let m = cl("sampler", m)?;
                    let r = kernel.set_arg(i, &m.get());
                    samplers.push(m);
                    r
                }
                Arg::Image {
                    size,
                    dims,
                    format,
                    input,
                    output,
                } => {
                    let mut bytes = std::fs::read(input)
                        .map_err(|e| Error::Run(format!("{}: {e}", input.display())))?;
                    let &(_, order, ty, texel) = FORMATS.iter().find(|f| f.0 == *format).unwrap();
                    let want = size.iter().product::<usize>() * texel;
                    if bytes.len() != want {
                        return Err(usage(format!(
                            "--image: {} has {} bytes; a {size:?} {format} image has {want}",
                            input.display(),
                            bytes.len()
                        )));
                    }
                    let fmt = cl_image_format {
                        image_channel_order: order,
                        image_channel_data_type: ty,
                    };
                    let desc = cl_image_desc {
                        image_type: [
                            CL_MEM_OBJECT_IMAGE1D,
                            CL_MEM_OBJECT_IMAGE2D,
                            CL_MEM_OBJECT_IMAGE3D,
                        ][dims - 1],
                        image_width: size[0],
                        image_height: if *dims >= 2 { size[1] } else { 0 },
                        image_depth: if *dims == 3 { size[2] } else { 0 },
                        image_array_size: 0,
                        image_row_pitch: 0,
                        image_slice_pitch: 0,
                        num_mip_levels: 0,
                        num_samples: 0,
                        buffer: std::ptr::null_mut(),
                    };
                    let access = if output.is_some() {
                        CL_MEM_READ_WRITE
                    } else {
                        CL_MEM_READ_ONLY
                    };
                    let m = Image::create(
                        &context,
                        access | CL_MEM_COPY_HOST_PTR,
                        &fmt,
                        &desc,
                        bytes.as_mut_ptr() as *mut c_void,
                    );
                    let m = cl(&format!("image {}", input.display()), m)?;
                    let r = kernel.set_arg(i, &m.get());
                    images.push((m, *size, texel, output.as_ref()));
                    r
                }
                Arg::Scalar(s) => match s {
                    Scalar::I8(v) => kernel.set_arg(i, v),
                    Scalar::U8(v) => kernel.set_arg(i, v),
                    Scalar::I16(v) => kernel.set_arg(i, v),
                    Scalar::U16(v) => kernel.set_arg(i, v),
                    Scalar::I32(v) => kernel.set_arg(i, v),
                    Scalar::U32(v) => kernel.set_arg(i, v),
                    Scalar::I64(v) => kernel.set_arg(i, v),
                    Scalar::U64(v) => kernel.set_arg(i, v),
                    Scalar::F32(v) => kernel.set_arg(i, v),
                    Scalar::F64(v) => kernel.set_arg(i, v),
                },
            }
        };
        cl(&format!("argument {i} ({a:?})"), r)?;
    }

    let dims = cmd.global.len() as u32;
    let local = cmd.local.as_ref().map_or(std::ptr::null(), |l| l.as_ptr());
    // SAFETY: the kernel's arguments are all set; the size arrays have `dims` entries.
    let event = unsafe {
        queue.enqueue_nd_range_kernel(
            kernel.get(),
            dims,
            std::ptr::null(),
            cmd.global.as_ptr(),
            local,
            &[],
        )
    };
    cl("launching the kernel", event)?;
    cl("waiting for the kernel", queue.finish())?;

    for (buffer, output) in buffers.iter().flatten() {
        let mut bytes = vec![
            0u8;
            buffer
                .size()
                .map_err(|e| Error::Run(format!("buffer size: {e}")))?
        ];
        // SAFETY: `bytes` has the buffer's size; the read is blocking.
        let r = unsafe { queue.enqueue_read_buffer(buffer, CL_BLOCKING, 0, &mut bytes, &[]) };
        cl("reading a buffer back", r)?;
        std::fs::write(output, &bytes)
            .map_err(|e| Error::Run(format!("{}: {e}", output.display())))?;
    }
    for (image, size, texel, output) in &images {
        let Some(output) = output else { continue };
        let mut bytes = vec![0u8; size.iter().product::<usize>() * texel];
        let origin = [0usize; 3];
        // SAFETY: `bytes` holds the whole image, packed (pitches 0); the read is blocking.
        let r = unsafe {
            queue.enqueue_read_image(
                image,
                CL_BLOCKING,
                origin.as_ptr(),
                size.as_ptr(),
                0,
                0,
                bytes.as_mut_ptr() as *mut c_void,
                &[],
            )
        };
        cl("reading an image back", r)?;
        std::fs::write(output, &bytes)
            .map_err(|e| Error::Run(format!("{}: {e}", output.display())))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match parse(&argv).and_then(|cmd| run(&cmd)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Error::Usage(what)) => {
            eprintln!("pocl-run: {what}\n{USAGE}");
            ExitCode::from(2)
        }
        Err(Error::Run(what)) => {
            eprintln!("pocl-run: {what}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn usage_error(s: &str) -> String {
        match parse(&args(s)) {
            Err(Error::Usage(w)) => w,
            Err(Error::Run(w)) => panic!("a run error for a bad command line: {w}"),
            Ok(c) => panic!("accepted: {c:?}"),
        }
    }

    #[test]
    fn parses_the_command_line_of_visa_run() {
        let c = parse(&args(
            "k.cl --kernel k --global 64,2 --local 16,1 --platform DG2 --constant c.bin:d.bin --buffer a.bin:b.bin --scalar i32:-5 --scalar u64:0x10 --scalar f32:1.5 --local-mem 256",
        ))
        .ok()
        .unwrap();
        assert_eq!(c.source, PathBuf::from("k.cl"));
        assert_eq!(
            (c.kernel.as_str(), c.global, c.local),
            ("k", vec![64, 2], Some(vec![16, 1]))
        );
        assert_eq!(
            c.args,
            vec![
                Arg::Buffer {
                    input: "c.bin".into(),
                    output: "d.bin".into(),
                },
                Arg::Buffer {
                    input: "a.bin".into(),
                    output: "b.bin".into()
                },
                Arg::Scalar(Scalar::I32(-5)),
                Arg::Scalar(Scalar::U64(16)),
                Arg::Scalar(Scalar::F32(1.5)),
                Arg::LocalMem(256),
            ]
        );
    }

    #[test]
    fn bad_command_lines_are_errors_that_say_what() {
        assert!(usage_error("--kernel k --global 4").contains("no OpenCL C source"));
        assert!(usage_error("k.cl --global 4").contains("--kernel"));
        assert!(usage_error("k.cl --kernel k").contains("--global"));
        assert!(
            usage_error("k.cl --kernel k --global 4,0").contains("`0` is not a positive integer")
        );
        assert!(usage_error("k.cl --kernel k --global 1,2,3,4").contains("1 to 3 sizes"));
        assert!(usage_error("k.cl --kernel k --global 8 --local 3").contains("not a multiple"));
        assert!(usage_error("k.cl --kernel k --global 8,1 --local 4")
            .contains("1 dimension(s), --global 2"));
        assert!(usage_error("k.cl --kernel k --global 8 --scalar i8:300").contains("is not a i8"));
        assert!(
            usage_error("k.cl --kernel k --global 8 --scalar q7:1").contains("unknown type `q7`")
        );
        assert!(usage_error("k.cl --kernel k --global 8 --scalar 5").contains("TYPE:VALUE"));
        assert!(usage_error("k.cl --kernel k --global 8 --buffer a.bin").contains("IN.bin:OUT.bin"));
        assert!(usage_error("k.cl --kernel k --global 8 --image 8:rgba-f32")
            .contains("wrong number of parts"));
        assert!(
            usage_error("k.cl --kernel k --global 8 --image 8:bgra-f16:a.bin")
                .contains("unknown image format")
        );
        assert_eq!(
            parse(&args(
                "k.cl --kernel k --global 8 --image 8,4:r-u32:a.bin:b.bin"
            ))
            .ok()
            .unwrap()
            .args,
            [Arg::Image {
                size: [8, 4, 1],
                dims: 2,
                format: "r-u32",
                input: "a.bin".into(),
                output: Some("b.bin".into()),
            }]
        );
        assert!(usage_error("k.cl --kernel k --global 8 --local-mem -4")
            .contains("positive byte count"));
        assert!(
            usage_error("k.cl --kernel k --global 8 --bogus").contains("unknown option `--bogus`")
        );
        assert!(usage_error("k.cl other.cl --kernel k --global 8")
            .contains("unexpected argument `other.cl`"));
        assert!(usage_error("k.cl --kernel").contains("--kernel needs a value"));
    }
}
