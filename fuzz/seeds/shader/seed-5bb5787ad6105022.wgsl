struct Inner { enabled: bool }
struct Flags { on: u32, inner: array<Inner, 2> }