// Vector types: float4 arithmetic, vload/vstore, dot and cross products, swizzles.
kernel void vectors(global float *a, global const float4 *b) {
    size_t i = get_global_id(0);
    float4 x = vload4(i, a);
    float4 y = b[i];
    float d = dot(x, y);
    float4 c = cross(x, y);
    vstore4(c * d + x.wzyx - y.xxyy, i, a);
}
