enable f16;
struct S { m: mat3x3<f16> }