//! Generated names that had to dodge keywords and collisions still serialise
//! under the model's own JSON names, and the conversions still work.

use serde_json::json;
use tricky_names::{clone, dictionary, option, types};

fn option_doc() -> option::Option {
    option::Option {
        id: "o1".into(),
        r#type: Default::default(),
        etag: None,
        ts: None,
        option_id: "o1".into(),
        r#match: "m".into(),
        r#loop: Some(3),
        a_bc: "upper".into(),
        kind: "k".into(),
        account_ref: types::AccountRef {
            note: "a value object named like a reference".into(),
        },
        r#impl: types::Box { r#where: None },
        vecs: vec![types::Vec { r#fn: "f".into() }],
        account: types::AccountRef_::new("a1"),
    }
}

#[test]
fn keyword_and_colliding_fields_keep_their_json_names() {
    let value = serde_json::to_value(option_doc()).unwrap();
    assert_eq!(
        value,
        json!({
            "id": "o1", "type": "option", "optionId": "o1",
            "match": "m", "loop": 3, "aBC": "upper", "kind": "k",
            "accountRef": {"note": "a value object named like a reference"},
            "impl": {},
            "vecs": [{"fn": "f"}],
            "account": {"id": "a1", "partitionKey": "account"}
        })
    );
    let back: option::OptionDocument_ = serde_json::from_value(value).unwrap();
    assert_eq!(back, option::OptionDocument_::Option(option_doc()));
}

#[test]
fn an_entity_named_like_the_container_enum_gets_its_own_variant() {
    let doc = option::OptionDocument {
        id: "d1".into(),
        r#type: Default::default(),
        etag: None,
        ts: None,
        option_id: "o1".into(),
    };
    let value = serde_json::to_value(&doc).unwrap();
    assert_eq!(value["type"], "optionDocument");
    let any: option::OptionDocument_ = serde_json::from_value(value).unwrap();
    assert_eq!(any.partition_key(), "o1");
    assert!(matches!(any, option::OptionDocument_::OptionDocument(_)));
}

#[test]
fn prelude_named_types_convert_and_refer() {
    let default = dictionary::Default {
        id: "d1".into(),
        r#type: Default::default(),
        etag: None,
        ts: None,
        from: "somewhere".into(),
    };
    let snapshot = types::DefaultSnapshot::from(&default);
    assert_eq!(snapshot.default_id, "d1");
    assert_eq!(snapshot.from, "somewhere");
    let clone = clone::Clone {
        id: "c1".into(),
        r#type: Default::default(),
        etag: None,
        ts: None,
        clone_id: "c1".into(),
        into: "i".into(),
        default: snapshot,
    };
    assert_eq!(serde_json::to_value(&clone).unwrap()["default"]["defaultId"], "d1");
    let reference = types::OptionRef::from(&option_doc());
    assert_eq!((reference.id.as_str(), reference.partition_key.as_str()), ("o1", "o1"));
    assert_eq!(types::AccountRef_::new("a9").partition_key, dictionary::Account::TYPE);
}

/// Access pattern methods keep the non-ASCII letters of their names (`ñandú por id`
/// was `and_por_id`), and a name written as HTML becomes its words.
#[test]
fn pattern_methods_keep_non_ascii_letters() {
    use tricky_names::data::Database;
    let by_id = Database::ñandú_por_id;
    let tokyo = Database::東京_types_by_id;
    let hostile = Database::img_src_x_onerror_alert_1_a_href_https_example_com_super_a_init_theme_dark_quot_amp;
    let names = [
        std::any::type_name_of_val(&by_id),
        std::any::type_name_of_val(&tokyo),
        std::any::type_name_of_val(&hostile),
    ];
    assert!(names[0].ends_with("ñandú_por_id"), "{names:?}");
    assert!(names[1].ends_with("東京_types_by_id"), "{names:?}");
}
