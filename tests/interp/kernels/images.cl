// Images: sampler-less read_imagef with integer coordinates and write_imagef / write_imageui,
// which Intel's compiler makes LOAD_LZ (3D_LOAD ld_lz) and SCATTER4_TYPED. (A read through a
// CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_NONE | CLK_FILTER_NEAREST sampler becomes
// `sample_lz` / `sample_l`, 3D_SAMPLE, which the machine does not run.)

// A transform of every texel into a written image (write_imagef of read_imagef).
kernel void image_scale(read_only image2d_t src, write_only image2d_t dst, float k) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(src, p);
    write_imagef(dst, p, v * k + (float4)(1.0f, 2.0f, 3.0f, 4.0f));
}

// A mirrored read into a buffer, and a one-channel float image (G, B read as 0, A as 1).
kernel void image_mirror(read_only image2d_t src, read_only image2d_t one, global float4 *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = 16;
    float4 a = read_imagef(src, (int2)(w - 1 - x, y));
    float4 b = read_imagef(one, (int2)(x, y));
    out[y * w + x] = a + b * 10.0f;
}

// 8-bit normalised texels (UNORM8: float <-> byte conversions) and 32-bit unsigned ones. The
// scale is no simple fraction: b / 255 * 0.5 * 255 is an exact tie for odd b (0.3: for b = 5,
// 15, ...), which the docs round to even ("Round to even", SCATTER4_TYPED.md:133) and pocl
// rounds up (122.5 -> 123, 4.5 -> 5): ties are left out of the comparison.
kernel void image_formats(read_only image2d_t bytes, write_only image2d_t half_bytes,
                          write_only image2d_t uints) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 v = read_imagef(bytes, p);
    write_imagef(half_bytes, p, v * 0.3183099f);
    write_imageui(uints, p, (uint4)(p.x * 3 + p.y, 0, 0, 0) + convert_uint4(v * 255.0f));
}
