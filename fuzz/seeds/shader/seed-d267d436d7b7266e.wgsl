struct S{i} {{ a: S{} }}
