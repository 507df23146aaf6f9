struct A { n: atomic<u32> }
struct B { n: u32 }