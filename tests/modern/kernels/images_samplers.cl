// Images through samplers (each address mode and filter), integer images and image queries.
constant sampler_t nearest_clamp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
constant sampler_t linear_repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
constant sampler_t mirrored = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
constant sampler_t border = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;

kernel void sample_modes(read_only image2d_t img, global float4 *out) {
    int x = get_global_id(0), y = get_global_id(1);
    int w = get_image_width(img), h = get_image_height(img);
    float2 n = (float2)((x + 0.5f) / w, (y + 0.5f) / h);
    float4 r = read_imagef(img, nearest_clamp, (int2)(x - 1, y + 1));
    r += read_imagef(img, linear_repeat, n * 1.5f);
    r += read_imagef(img, mirrored, n * 2.0f - 0.5f);
    r += read_imagef(img, border, (float2)(x - 0.25f, y + 0.75f));
    out[y * w + x] = r;
}

kernel void int_images(read_only image2d_t in, write_only image2d_t out, read_only image3d_t vol,
                       global int4 *dims) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    uint4 v = read_imageui(in, p);
    int4 q = read_imagei(vol, (int4)(p, 1, 0));
    write_imageui(out, p, v + (uint4)(1) + convert_uint4(q));
    if (p.x == 0 && p.y == 0)
        dims[0] = (int4)(get_image_width(vol), get_image_height(vol), get_image_depth(vol),
                         get_image_channel_order(in));
}
