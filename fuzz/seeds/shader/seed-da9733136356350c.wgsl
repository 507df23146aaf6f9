struct A { time: f32, frame: u32 }
struct B { time: f32, frame: i32 }