fn main() -> Result<(), cosmap_codegen::BuildError> {
    cosmap_codegen::Builder::new()
        .model("../ticketing/model.json")
        .data_access(true)
        .compile()
}
