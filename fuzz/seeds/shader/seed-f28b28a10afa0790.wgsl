struct Flags { on: u32, inner: array<Inner, 2> }
struct Inner { enabled: bool }
@group(0) @binding(0) var<uniform> flags: Flags;
