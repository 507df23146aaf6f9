struct S{k} {{ {attr}a: S{p}, b: S{p} }}
