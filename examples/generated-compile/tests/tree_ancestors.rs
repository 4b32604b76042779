//! The generated types of `patterns/tree-ancestors`: a root category has no parent
//! (the field is absent from its JSON), and a child's ancestors are its parent's
//! ancestors and the parent, each built `From` the category.

use generated_compile::tree_ancestors::{category::Category, types};

#[test]
fn a_root_has_no_parent_and_a_child_lists_its_ancestors_root_first() {
    let root = Category::new("c-1", "Books", "books", "");
    let value = serde_json::to_value(&root).unwrap();
    assert!(value.get("parent").is_none(), "{value}");
    assert_eq!(value["ancestors"], serde_json::json!([]));
    let mut novels = Category::new("c-2", "Novels", "novels", "");
    novels.parent = Some(types::CategoryRef::from(&root));
    novels.ancestors = root.ancestors.clone();
    novels.ancestors.push(types::CategoryRefWithName::from(&root));
    let mut crime = Category::new("c-3", "Crime", "crime", "");
    crime.parent = Some(types::CategoryRef::from(&novels));
    crime.ancestors = novels.ancestors.clone();
    crime.ancestors.push(types::CategoryRefWithName::from(&novels));
    let names: Vec<&str> = crime.ancestors.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["Books", "Novels"]);
    let back: Category = serde_json::from_value(serde_json::to_value(&crime).unwrap()).unwrap();
    assert_eq!(back, crime);
    // A category written without a list reads with an empty one.
    let bare = serde_json::json!({"id": "c-4", "type": "category", "categoryId": "c-4", "name": "Maps", "slug": "maps", "merchandisingNotes": ""});
    let read: Category = serde_json::from_value(bare).unwrap();
    assert!(read.ancestors.is_empty() && read.parent.is_none());
}
