//! Compiles the generated C parser into the crate.

fn main() {
    let src_dir = std::path::Path::new("src");

    let mut c_config = cc::Build::new();
    c_config.std("c11").include(src_dir).opt_level(3);
    #[cfg(target_env = "msvc")]
    c_config.flag("-utf-8");
    // The web page's WebAssembly has no libc: the headers come from
    // tree-sitter-language, the functions from tree-sitter's own subset.
    if std::env::var("TARGET").is_ok_and(|t| t == "wasm32-unknown-unknown") {
        let headers = std::env::var("DEP_TREE_SITTER_LANGUAGE_WASM_HEADERS")
            .expect("tree-sitter-language names its headers for wasm32-unknown-unknown");
        c_config.include(headers);
    }

    let parser_path = src_dir.join("parser.c");
    c_config.file(&parser_path);
    println!("cargo:rerun-if-changed={}", parser_path.to_str().unwrap());
    // The external scanner (the zero-width token that ends a move before a
    // comment).
    let scanner_path = src_dir.join("scanner.c");
    c_config.file(&scanner_path);
    println!("cargo:rerun-if-changed={}", scanner_path.to_str().unwrap());

    c_config.compile("tree-sitter-chess");
}
