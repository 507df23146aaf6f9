{decls}
@group(0) @binding(0) var<{space}> a: {a};
@group(0) @binding(1) var<{space}> b: {b};
