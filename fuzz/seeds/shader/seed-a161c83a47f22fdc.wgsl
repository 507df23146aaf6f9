{decls}
@group(0) @binding(0) var<{space}> u: {ty};
