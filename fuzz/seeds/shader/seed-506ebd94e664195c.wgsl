struct Flags { on: u32, inner: array<Inner, 2> }
struct Inner { enabled: bool }