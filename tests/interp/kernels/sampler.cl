// Images read through samplers (3D_SAMPLE: `sample_lz` on tgllp, `sample_l` at LOD 0 on
// acm-g10), image queries, and integer and 3D images read and written (3D_LOAD `ld_lz`,
// SCATTER4_TYPED). The samplers are `sampler_t` arguments, whose state the manifest gives
// (`--sampler`), but for `sample_inline`'s inline `const sampler_t`.

// read_imagef of a 2D image at float coordinates, one kernel per sampler state (the manifest
// runs each kernel once): normalised coordinates with every address mode and filter, and
// unnormalised ones with none, clamp_to_edge and clamp (repeat modes need normalised ones).
#define SAMPLE_2D(NAME)                                                                     \
    kernel void NAME(read_only image2d_t img, sampler_t s, global const float2 *c,          \
                     global float4 *out) {                                                  \
        int i = get_global_id(0);                                                           \
        out[i] = read_imagef(img, s, c[i]);                                                 \
    }

SAMPLE_2D(sample_norm_none_nearest)
SAMPLE_2D(sample_norm_none_linear)
SAMPLE_2D(sample_norm_edge_nearest)
SAMPLE_2D(sample_norm_edge_linear)
SAMPLE_2D(sample_norm_clamp_nearest)
SAMPLE_2D(sample_norm_clamp_linear)
SAMPLE_2D(sample_norm_repeat_nearest)
SAMPLE_2D(sample_norm_repeat_linear)
SAMPLE_2D(sample_norm_mirror_nearest)
SAMPLE_2D(sample_norm_mirror_linear)
SAMPLE_2D(sample_unnorm_none_nearest)
SAMPLE_2D(sample_unnorm_none_linear)
SAMPLE_2D(sample_unnorm_edge_nearest)
SAMPLE_2D(sample_unnorm_edge_linear)
SAMPLE_2D(sample_unnorm_clamp_nearest)
SAMPLE_2D(sample_unnorm_clamp_linear)
// The same kernel over 8-bit normalised texels.
SAMPLE_2D(sample_unorm8_repeat_linear)

// read_imagef through an inline `const sampler_t`: its state is in the compiler's binary only
// (zeinfo `inline_samplers`, with an `inline_sampler` payload entry where samplers are
// bindless), so the interpreter needs `--program` or `--zeinfo` for it.
const sampler_t inline_mirror = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT |
                                CLK_FILTER_LINEAR;

kernel void sample_inline(read_only image2d_t img, global const float2 *c, global float4 *out) {
    int i = get_global_id(0);
    out[i] = read_imagef(img, inline_mirror, c[i]);
}

// read_imagef through a sampler at integer coordinates.
kernel void sample_int_coords(read_only image2d_t img, sampler_t s, global float4 *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int2 p = (int2)(x - 2, y - 1);
    out[y * 8 + x] = read_imagef(img, s, p);
}

// read_imageui and read_imagei through a nearest sampler (a clamp one takes Intel's
// integer-border path: 3D_LOAD on texel coordinates it computes from the image size).
kernel void sample_uint_clamp(read_only image2d_t img, sampler_t s, global const float2 *c,
                              global uint4 *out) {
    int i = get_global_id(0);
    out[i] = read_imageui(img, s, c[i]);
}

kernel void sample_int_repeat(read_only image2d_t img, sampler_t s, global const float2 *c,
                              global int4 *out) {
    int i = get_global_id(0);
    out[i] = read_imagei(img, s, c[i]);
}

// 3D images through samplers: trilinear, and nearest with integer texels.
kernel void sample_3d_linear(read_only image3d_t img, sampler_t s, global const float4 *c,
                             global float4 *out) {
    int i = get_global_id(0);
    out[i] = read_imagef(img, s, c[i]);
}

kernel void sample_3d_int_nearest(read_only image3d_t img, sampler_t s,
                                  global const float4 *c, global int4 *out) {
    int i = get_global_id(0);
    out[i] = read_imagei(img, s, c[i]);
}

// Signed integer texels read and written without a sampler.
kernel void image_int_rw(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    int4 v = read_imagei(src, p);
    write_imagei(dst, p, v * (int4)(3, -1, 1, 2) + (int4)(p.x, p.y, -7, 0));
}

// Every size and format query of three images (each asked of each image, so the kernel's
// implicit inputs are all of them and their order is the only one they fit).
kernel void image_queries(read_only image2d_t a, read_only image3d_t b, read_only image2d_t c,
                          global int *out) {
    int i = get_global_id(0);
    int v[13] = {get_image_height(a),           get_image_height(b),
                 get_image_height(c),           get_image_width(a),
                 get_image_width(b),            get_image_width(c),
                 get_image_depth(b),            get_image_channel_data_type(a),
                 get_image_channel_data_type(b), get_image_channel_data_type(c),
                 get_image_channel_order(a),    get_image_channel_order(b),
                 get_image_channel_order(c)};
    for (int k = 0; k < 13; k++)
        out[i * 13 + k] = v[k];
}
