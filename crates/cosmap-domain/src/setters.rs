//! `setters!`: the model's builder methods that set, switch on or add to one field,
//! written once.

/// Builder methods, each taking `self` and returning it with one field changed:
/// `name() => on field` switches a flag on; `name(arg: T) => some field` sets an
/// optional field (`some_into`: to `arg.into()`); `name(arg: T) => push field` adds to
/// a list (`push_into`: `arg.into()`).
macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty)?) => $how:ident $($field:ident).+;)*) => {
        $(setters!(@one [$(#[$doc])*] $name ($($arg: $ty)?) $how $($field).+);)*
    };
    (@one [$($doc:tt)*] $name:ident () on $($field:ident).+) => {
        $($doc)*
        pub fn $name(mut self) -> Self {
            self.$($field).+ = true;
            self
        }
    };
    (@one [$($doc:tt)*] $name:ident ($arg:ident: $ty:ty) some $($field:ident).+) => {
        $($doc)*
        pub fn $name(mut self, $arg: $ty) -> Self {
            self.$($field).+ = Some($arg);
            self
        }
    };
    (@one [$($doc:tt)*] $name:ident ($arg:ident: $ty:ty) some_into $($field:ident).+) => {
        $($doc)*
        pub fn $name(mut self, $arg: $ty) -> Self {
            self.$($field).+ = Some($arg.into());
            self
        }
    };
    (@one [$($doc:tt)*] $name:ident ($arg:ident: $ty:ty) push $($field:ident).+) => {
        $($doc)*
        pub fn $name(mut self, $arg: $ty) -> Self {
            self.$($field).+.push($arg);
            self
        }
    };
    (@one [$($doc:tt)*] $name:ident ($arg:ident: $ty:ty) push_into $($field:ident).+) => {
        $($doc)*
        pub fn $name(mut self, $arg: $ty) -> Self {
            self.$($field).+.push($arg.into());
            self
        }
    };
}
