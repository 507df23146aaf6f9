{}{}struct SX {{ a: S{levels}, c: f32 }}
struct TX {{ a: T{levels}, c: u32 }}
