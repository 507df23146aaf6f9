struct T { m: mat2x2<f32> }
struct S { t: array<T, 2> }