fn main() -> Result<(), cosmap_codegen::BuildError> {
    cosmap_codegen::Builder::new()
        .model("model.json")
        .data_access(true)
        .compile()
}
