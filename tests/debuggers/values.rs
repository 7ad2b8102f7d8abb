//! What a pause shows: values of every kind, scopes and dead zones, names of functions and classes, setting variables and restarting frames.

use super::*;
async fn value_kinds(kind: &str) {
    let _g = SERIAL.lock().await;
    let mut e = engine(kind, CaptureOptions::default()).await;
    let p = fixture("values.js");
    let mut d = open(&mut e, &p).await;
    d.set_breakpoint(6, None).await.unwrap(); // `return [num, ...]` in kinds()
    d.set_breakpoint(9, None).await.unwrap(); // `const before = late;` in tdz()
    let s = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(s.location.line, 6);
    let v = |n: &str| var(&s, n).value.clone();
    assert_eq!(v("num"), Value::Number(42.0));
    assert_eq!(v("neg"), Value::Number(-0.0), "{kind}: -0 is exact");
    assert_eq!(v("nan"), Value::Number(f64::NAN));
    assert_eq!(v("inf"), Value::Number(f64::NEG_INFINITY));
    assert_eq!(v("big"), Value::BigInt("12345678901234567890".into()));
    assert_eq!(v("str"), Value::String("héllo".into()));
    assert_eq!(v("bool"), Value::Bool(true));
    assert_eq!(v("nul"), Value::Null);
    assert_eq!(v("undef"), Value::Undefined);
    assert_eq!(v("sym"), Value::Symbol("tag".into()));
    let Value::Object {
        kind: k,
        entries: Some(items),
        ..
    } = v("arr")
    else {
        panic!("{kind}: arr")
    };
    assert_eq!(k, ObjectKind::Array);
    assert_eq!(items.len(), 3);
    assert_eq!(items[1].key, Key::Index(1));
    assert_eq!(items[1].value, Value::String("two".into()));
    // Depth 2: the nested array is expanded one more level, its elements are leaves.
    let Value::Object {
        entries: Some(inner),
        ..
    } = &items[2].value
    else {
        panic!("{kind}: nested")
    };
    assert_eq!(inner[0].value, Value::Number(3.0));
    let Value::Object {
        entries: Some(o), ..
    } = v("obj")
    else {
        panic!()
    };
    assert_eq!(o[0].key, Key::Name("a".into()));
    let Value::Object {
        entries: Some(b), ..
    } = &o[1].value
    else {
        panic!()
    };
    assert_eq!(b[0].value, Value::String("deep".into()));
    let Value::Object {
        kind: ObjectKind::Map,
        entries: Some(m),
        ..
    } = v("map")
    else {
        panic!("{kind}: map")
    };
    assert_eq!(m[0].key, Key::Value(Value::String("k".into())));
    assert_eq!(m[0].value, Value::Number(1.0));
    let Value::Object {
        kind: ObjectKind::Set,
        entries: Some(st),
        ..
    } = v("set")
    else {
        panic!("{kind}: set")
    };
    assert_eq!(st[0].value, Value::Number(7.0));
    assert_eq!(v("fn").type_name(), "function");
    // A long array with holes: the elements present, holes left out (not `undefined`).
    let Value::Object {
        entries: Some(sp),
        truncated,
        ..
    } = v("sparse")
    else {
        panic!("{kind}: sparse")
    };
    let keys: Vec<&Key> = sp.iter().map(|e| &e.key).collect();
    assert_eq!(keys, [&Key::Index(3), &Key::Index(70)], "{kind}");
    assert!(!truncated, "{kind}: every present element was read");
    // Temporal dead zone: normalized the same way, whatever the engine reported.
    let t = paused(d.control(&Action::Resume).await.unwrap());
    assert_eq!(t.location.line, 9);
    for name in ["before", "late"] {
        let x = var(&t, name);
        assert_eq!(x.value, Value::Uninitialized, "{kind}: {name} in TDZ");
        // Chromium gives no value, Node says undefined, Firefox says "uninitialized" itself.
        // JavaScriptCore says undefined too; reading the name on the frame throws.
        let expected = match kind {
            "node" | "bun" => Some(Value::Undefined),
            "firefox" => None,
            _ => Some(Value::Unavailable),
        };
        assert_eq!(
            x.reported, expected,
            "{kind}: what the engine said of {name}"
        );
    }
    assert!(matches!(
        d.control(&Action::Resume).await.unwrap(),
        Output::Finished { .. }
    ));
    d.close().await;
    e.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chromium_values_of_every_kind() {
    value_kinds("chromium").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn node_values_of_every_kind() {
    value_kinds("node").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn firefox_values_of_every_kind() {
    value_kinds("firefox").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bun_values_of_every_kind() {
    value_kinds("bun").await;
}

/// Evidence for triage.toml's scope rule: V8 (Chromium, Node) leaves out of a function's scopes a
/// `var` nothing refers to; SpiderMonkey lists it. A local that is referenced (even only written)
/// and an unreferenced parameter are listed by both. The rule excuses exactly this and no more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v8_leaves_an_unreferenced_var_out_of_its_scopes() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("scopes.js", "function f(n, unused) {\n  var t;\n  var w;\n  w = 2;\n  var s = n + w;\n  return s;\n}\nf(1);\n");
    let names = |p: &PauseState| -> Vec<String> {
        let mut v: Vec<String> = morphtrace_judges::dbdb::visible_variables(p.top_scopes())
            .keys()
            .map(|k| k.to_string())
            .collect();
        v.sort();
        v
    };
    let mut seen = Vec::new();
    for kind in ["chromium", "node", "firefox"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(5, None).await.unwrap();
        let at_return = paused(d.control(&Action::Start).await.unwrap());
        assert_eq!(at_return.location.line, 5, "{kind}");
        seen.push((kind, names(&at_return)));
        d.close().await;
        e.shutdown().await;
    }
    let v8 = ["n", "s", "unused", "w"].map(String::from).to_vec();
    let spidermonkey = ["n", "s", "t", "unused", "w"].map(String::from).to_vec();
    assert_eq!(
        seen,
        vec![
            ("chromium", v8.clone()),
            ("node", v8),
            ("firefox", spidermonkey)
        ]
    );
}

/// Evidence for triage.toml's class-name rule: Firefox's grips name an object by its [[Class]]
/// (devtools' `ObjectActor` sends `Debugger.Object.class`), which is `Object` for every instance
/// of a program's class, where V8 and JavaScriptCore name the class; the entries are the same.
/// The near miss: a plain object is `Object` on all three. An evaluation of the instance on the
/// frame is named the same way.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn firefox_names_every_class_instance_object() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "instances.js",
        "class Point {\n  constructor(x) { this.x = x; }\n}\nconst p = new Point(1);\nconst o = { x: 1 };\np.x;\n",
    );
    let mut seen = Vec::new();
    for kind in ["chromium", "firefox", "bun"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(5, None).await.unwrap();
        let s = paused(d.control(&Action::Start).await.unwrap());
        assert_eq!(s.location.line, 5, "{kind}");
        let evaluated = match apply(
            d.as_mut(),
            &Action::Evaluate {
                expression: "p".into(),
            },
        )
        .await
        .unwrap()
        {
            Output::Evaluated {
                value,
                threw: false,
            } => value.to_string(),
            other => panic!("{kind}: {other:?}"),
        };
        assert_eq!(evaluated, var(&s, "p").value.to_string(), "{kind}");
        seen.push((
            kind,
            var(&s, "p").value.to_string(),
            var(&s, "o").value.to_string(),
        ));
        d.close().await;
        e.shutdown().await;
    }
    let o = "Object { x: 1 }".to_string();
    assert_eq!(
        seen,
        vec![
            ("chromium", "Point { x: 1 }".to_string(), o.clone()),
            ("firefox", o.clone(), o.clone()),
            ("bun", "Point { x: 1 }".to_string(), o),
        ]
    );
}

/// A class instance's private elements on three engines: each adapter reads them where its
/// protocol keeps them (V8's `privateProperties`, WebKit's `isPrivate` properties, SpiderMonkey's
/// private-properties iterator) and records them after the properties, by name, so that the
/// three show one object. Fields only: JavaScriptCore also lists a private method and accessor,
/// V8 the accessor, SpiderMonkey neither. A plain object's entries are the near miss.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_instances_private_fields_on_three_engines() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "private.js",
        "class Counter {\n  z = 1;\n  #count = 2;\n  #base = 3;\n  #scaled(n) { return n * this.#base; }\n  get #twice() { return this.#count * 2; }\n  constructor() { this.a = 4; }\n}\nconst c = new Counter();\nconst o = { z: 1, inner: c };\nc.z;\n",
    );
    let mut seen = Vec::new();
    for kind in ["chromium", "firefox", "bun"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(10, None).await.unwrap();
        let s = paused(d.control(&Action::Start).await.unwrap());
        assert_eq!(s.location.line, 10, "{kind}");
        let Value::Object {
            entries: Some(entries),
            ..
        } = &var(&s, "c").value
        else {
            panic!("{kind}: c is not an expanded object: {:?}", var(&s, "c"));
        };
        let keys = |entries: &[morphtrace_schema::Entry]| -> Vec<String> {
            entries.iter().map(|e| e.key.path_step()).collect()
        };
        // The same instance one level down, where SpiderMonkey's grip has no preview to count
        // private fields.
        let Value::Object {
            entries: Some(outer),
            ..
        } = &var(&s, "o").value
        else {
            panic!("{kind}: o is not an expanded object");
        };
        let inner = match outer.get(1).map(|e| &e.value) {
            Some(Value::Object {
                entries: Some(e), ..
            }) => keys(e),
            other => panic!("{kind}: o.inner is {other:?}"),
        };
        seen.push((kind, keys(entries), keys(outer), inner));
        d.close().await;
        e.shutdown().await;
    }
    let strings = |k: &[&str]| k.iter().map(|k| k.to_string()).collect::<Vec<_>>();
    let c = strings(&[".z", ".a", ".#base", ".#count"]);
    let o = strings(&[".z", ".inner"]);
    assert_eq!(
        seen,
        ["chromium", "firefox", "bun"].map(|k| (k, c.clone(), o.clone(), c.clone()))
    );
}

/// V8 shows a loop body's `const` with the previous iteration's value while the binding is in its
/// temporal dead zone again: each iteration has a new declarative environment (ECMAScript's
/// CreatePerIterationEnvironment and block evaluation), so before `const o = ...` runs the binding
/// is uninitialized, as SpiderMonkey and JavaScriptCore show it, and the program could not read
/// it. Near miss: the same loop whose binding a closure captures (V8 keeps it in a context
/// created anew each iteration) shows uninitialized on V8 too. An expression that reads the
/// binding evaluates with the old value on V8 and throws a `ReferenceError` on the others (the
/// evidence of the rule on evaluations, `evaluated-in-its-dead-zone`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v8_shows_a_loop_bodys_const_from_the_previous_iteration_in_its_dead_zone() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "stale.js",
        "function f(n) {\n  let sum = 0;\n  for (let i = 0; i < n; i++) {\n    const o = { x: i };\n    sum += o.x;\n  }\n  for (let j = 0; j < n; j++) {\n    const c = { x: j };\n    const read = () => c.x;\n    sum += read();\n  }\n  return sum;\n}\nf(2);\n",
    );
    let mut seen = Vec::new();
    for kind in ["chromium", "firefox", "bun"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(3, None).await.unwrap();
        d.set_breakpoint(7, None).await.unwrap();
        let mut shown = Vec::new();
        let mut s = paused(d.control(&Action::Start).await.unwrap());
        for name in ["o", "o", "c", "c"] {
            // An expression that reads the binding: what the evaluation quirk
            // (`evaluated-in-its-dead-zone`) ties to the binding shown.
            let evaluated = match d.evaluate(&format!("{name}.x + 1")).await.unwrap() {
                // The class alone: V8 words a message of its own here.
                Output::Evaluated {
                    threw: true,
                    value: Value::Object { class, .. },
                } => format!("threw {class}"),
                Output::Evaluated { value, .. } => value.to_string(),
                other => panic!("{kind}: evaluate answered {other:?}"),
            };
            shown.push(format!(
                "{}:{name}={} ({evaluated})",
                s.location.line,
                var(&s, name).value
            ));
            if shown.len() < 4 {
                s = paused(d.control(&Action::Resume).await.unwrap());
            }
        }
        seen.push((kind, shown));
        d.close().await;
        e.shutdown().await;
    }
    let threw = "threw ReferenceError";
    let dead = |o: &str, evaluated: &str| {
        vec![
            // 0-based lines: `const o` is line 4, `const c` line 8.
            format!("3:o=<uninitialized> ({threw})"),
            format!("3:o={o} ({evaluated})"),
            format!("7:c=<uninitialized> ({threw})"),
            format!("7:c=<uninitialized> ({threw})"),
        ]
    };
    assert_eq!(
        seen,
        vec![
            ("chromium", dead("Object { x: 0 }", "1")),
            ("firefox", dead("<uninitialized>", threw)),
            ("bun", dead("<uninitialized>", threw)),
        ]
    );
}

/// Evidence for triage.toml's two rules on a class's own name inside its body. ECMAScript's
/// ClassDefinitionEvaluation binds it in a scope of the class (the `classScope`), initialized
/// before static blocks run, apart from the declaration's outer binding (in its dead zone until
/// the class is complete). In a method, after the class is defined: SpiderMonkey lists that scope
/// as a closure scope, and where nothing in the class refers to its name optimizes the binding
/// out, which Firefox shows as such (`Debugger.Environment.getVariable`'s `optimizedOut`); V8 and
/// JavaScriptCore leave the scope out, so the name's innermost binding there is the script's, the
/// same class. In a static block, while the class is defined: V8 still lists no scope of the class
/// and shows the script's binding, uninitialized; SpiderMonkey shows the class's binding
/// optimized out, JavaScriptCore the class. Near misses: a class that names itself (in a method,
/// in its static block) keeps the binding, and all three show the class. (The static block's was
/// met once lockstep compared a pause's variables past an excused call-stack difference:
/// `jsc_steps_out_of_a_static_block_into_the_next_members_parameters`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_name_nothing_in_the_class_refers_to_on_each_engine() {
    let _g = SERIAL.lock().await;
    let (_dir, methods) = inline(
        "classname.js",
        "class Base {\n  constructor(n) { this.n = n; }\n}\nclass Quiet extends Base {\n  constructor(n) {\n    super(n);\n    this.extra = 2;\n  }\n}\nclass Named extends Base {\n  constructor(n) {\n    super(n);\n    this.same = this.constructor === Named;\n  }\n}\nnew Quiet(1);\nnew Named(2);\n",
    );
    let (_dir2, statics) = inline(
        "ownname.js",
        "var acc = 0;\nclass Quiet {\n  static {\n    acc = 1;\n  }\n}\nclass Named {\n  static {\n    acc = Named === undefined ? 0 : 2;\n  }\n}\nacc = 3;\n",
    );
    let mut seen = Vec::new();
    let mut evaluations = Vec::new();
    for kind in ["chromium", "firefox", "bun"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        for (p, lines) in [(&methods, [6, 12]), (&statics, [3, 8])] {
            let mut d = open(&mut e, p).await;
            d.set_breakpoint(lines[0], None).await.unwrap();
            d.set_breakpoint(lines[1], None).await.unwrap();
            let quiet = paused(d.control(&Action::Start).await.unwrap());
            let quiet_evaluated = evaluated(d.as_mut(), "typeof Quiet").await;
            let named = paused(d.control(&Action::Resume).await.unwrap());
            let named_evaluated = evaluated(d.as_mut(), "typeof Named").await;
            seen.push((
                kind,
                quiet.location.line,
                var(&quiet, "Quiet").value.to_string(),
                named.location.line,
                var(&named, "Named").value.to_string(),
            ));
            evaluations.push((kind, quiet_evaluated, named_evaluated));
            d.close().await;
        }
        e.shutdown().await;
    }
    let s = |v: &str| v.to_string();
    // The classes with a constructor of their own are at its line; the static blocks' classes
    // have none (JavaScriptCore says no line for them).
    let quiet = s(r#"Function { name: "Quiet", [[line]]: 5 }"#);
    let named = s(r#"Function { name: "Named", [[line]]: 11 }"#);
    let named_static = s(r#"Function { name: "Named", [[line]]: 7 }"#);
    let no_line = |name: &str| format!("Function {{ name: {name:?} }}");
    assert_eq!(
        seen,
        vec![
            ("chromium", 6, quiet.clone(), 12, named.clone()),
            ("chromium", 3, s("<uninitialized>"), 8, named_static.clone()),
            ("firefox", 6, s("<optimized out>"), 12, named.clone()),
            ("firefox", 3, s("<optimized out>"), 8, named_static),
            ("bun", 6, quiet, 12, named),
            ("bun", 3, no_line("Quiet"), 8, no_line("Named")),
        ]
    );
    // Evaluated there, `typeof` of the name: SpiderMonkey throws its error for a binding it did
    // not keep (the rule on `evaluated-an-optimized-out-name`); the class where it kept it.
    let function = s(r#""function""#);
    let optimized_out = s("threw Error: variable 'Quiet' has been optimized out");
    assert_eq!(
        evaluations,
        vec![
            ("chromium", function.clone(), function.clone()),
            (
                "chromium",
                s("threw ReferenceError: Quiet is not defined"),
                function.clone()
            ),
            ("firefox", optimized_out.clone(), function.clone()),
            ("firefox", optimized_out, function.clone()),
            ("bun", function.clone(), function.clone()),
            ("bun", function.clone(), function),
        ]
    );
}

/// What evaluating `expression` at the current pause gives: the value, or `threw` and the
/// first line of the error's description (V8's goes on with a stack).
async fn evaluated(d: &mut dyn Debugger, expression: &str) -> String {
    let evaluate = Action::Evaluate {
        expression: expression.into(),
    };
    match apply(d, &evaluate).await.unwrap() {
        Output::Evaluated {
            value,
            threw: false,
        } => value.to_string(),
        Output::Evaluated {
            value: Value::Object {
                description, class, ..
            },
            threw: true,
        } => format!(
            "threw {}",
            description
                .unwrap_or(class)
                .lines()
                .next()
                .unwrap_or_default()
        ),
        other => panic!("{expression}: {other:?}"),
    }
}

/// A script-level `let` not declared yet, seen from a function the script called before its
/// declaration: in its dead zone on every engine, and evaluating it throws. Node 20 reports it
/// as `undefined` from the inner frame (a metamorphic evaluate-a-local warning found it); the
/// recorder reads the script's own position on the stack, as it does for the top-level frame.
async fn dead_zone_seen_from_a_callee(kind: &str) {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "tdz-callee.js",
        "function peek() {\n\
         \x20 return 1;\n\
         }\n\
         peek();\n\
         let later = 2;\n\
         peek();\n",
    );
    let mut e = engine(kind, CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    d.set_breakpoint(1, None).await.unwrap();
    let s = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(s.location.line, 1, "{kind}");
    assert_eq!(var(&s, "later").value, Value::Uninitialized, "{kind}");
    let thrown = apply(
        d.as_mut(),
        &Action::Evaluate {
            expression: "later".into(),
        },
    )
    .await
    .unwrap();
    assert!(
        matches!(thrown, Output::Evaluated { threw: true, .. }),
        "{kind}: {thrown:?}"
    );
    // After the declaration ran: its value.
    let s = paused(d.control(&Action::Resume).await.unwrap());
    assert_eq!(var(&s, "later").value, Value::Number(2.0), "{kind}");
    d.close().await;
    e.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dead_zone_seen_from_a_callee_on_every_engine() {
    for kind in ["node", "chromium", "firefox", "bun"] {
        dead_zone_seen_from_a_callee(kind).await;
    }
}

/// Evidence for triage.toml's rule on V8's derived constructors (traces/findings/
/// v8-evaluating-on-a-derived-constructors-frame-before-super-makes-super-throw), its second
/// face. Node 20's V8 checks `this` at a `return;` in a `catch` before the `finally` that calls
/// `super()` through an arrow, and throws `Must call super constructor` (the program does so
/// without any debugger; test262 expects an object, and Deno's newer V8 and JavaScriptCore
/// construct it). An evaluation on the constructor's frame before `super()` makes V8 take
/// `this` as bound: the `return` no longer throws, and the `finally`'s `super()` throws
/// instead. A follow-up that only evaluates more then pauses elsewhere than its parent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v8_an_evaluation_before_super_changes_which_error_a_derived_constructor_throws() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "derived-return.js",
        "class B {}\n\
         class C extends B {\n\
         \x20 constructor() {\n\
         \x20   var f = () => super();\n\
         \x20   try {\n\
         \x20     throw null;\n\
         \x20   } catch (e) {\n\
         \x20     return;\n\
         \x20   } finally {\n\
         \x20     f();\n\
         \x20   }\n\
         \x20 }\n\
         }\n\
         new C();\n\
         console.log(\"constructed\");\n",
    );
    let mut e = engine("node", CaptureOptions::default()).await;
    let mut thrown = Vec::new();
    for evaluate in [false, true] {
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(7, None).await.unwrap();
        let s = paused(d.control(&Action::Start).await.unwrap());
        assert_eq!(s.location.line, 7);
        if evaluate {
            let o = apply(
                d.as_mut(),
                &Action::Evaluate {
                    expression: "1".into(),
                },
            )
            .await
            .unwrap();
            assert!(matches!(o, Output::Evaluated { threw: false, .. }), "{o:?}");
        }
        match d.control(&Action::Resume).await.unwrap() {
            Output::Finished {
                outcome:
                    ProgramOutcome::UncaughtException {
                        message,
                        location: Some(at),
                    },
            } => thrown.push((message, at.line)),
            other => panic!("evaluate {evaluate}: {other:?}"),
        }
        d.close().await;
    }
    e.shutdown().await;
    assert_eq!(
        thrown,
        [
            (
                "ReferenceError: Must call super constructor in derived class before accessing \
                 'this' or returning from derived constructor"
                    .to_string(),
                7
            ),
            (
                "ReferenceError: Super constructor may only be called once".to_string(),
                3
            ),
        ]
    );
}

/// Setting a local at a pause changes what the program computes from there on, and reads back
/// as set; a binding the language holds fixed (`const`) is refused where the set is an
/// assignment (Firefox, Bun) and, on V8, whatever `setVariableValue` answers is recorded. A
/// continue to a location stops at that line, past the function it started in; Firefox's
/// protocol has none and says so.
async fn set_variable_and_continue(kind: &str) {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "set.js",
        "const k = 1;\nfunction f(n) {\n  let t = n * 2;\n  return t + k;\n}\nlet r = f(3);\nconsole.log(\"r\", r);\nr = f(r);\nconsole.log(\"r\", r);\n",
    );
    let mut e = engine(kind, CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    d.set_breakpoint(3, None).await.unwrap();
    let s = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!(s.location.line, 3, "{kind}");
    let set = |name: &str, value: &str| Action::SetVariable {
        name: name.into(),
        value: value.into(),
    };
    let out = apply(d.as_mut(), &set("t", "100")).await.unwrap();
    assert_eq!(
        out,
        Output::VariableSet {
            name: "t".into(),
            value: Value::Number(100.0)
        },
        "{kind}"
    );
    let out = apply(d.as_mut(), &set("n", "\"x\"")).await.unwrap();
    assert_eq!(
        out,
        Output::VariableSet {
            name: "n".into(),
            value: Value::String("x".into())
        },
        "{kind}"
    );
    let out = apply(d.as_mut(), &set("nowhere", "1")).await.unwrap();
    assert!(matches!(out, Output::Error { .. }), "{kind}: {out:?}");
    if d.continues_to_location() {
        let s = paused(
            d.control(&Action::ContinueToLocation { line: 7 })
                .await
                .unwrap(),
        );
        assert_eq!(s.location.line, 7, "{kind}: {s:?}");
        assert_eq!(s.stack.len(), 1, "{kind}: left f");
        assert_eq!(s.reason.name(), "continue-to-location", "{kind}");
        let r = morphtrace_judges::dbdb::visible_variables(s.top_scopes())
            .get("r")
            .map(|v| (*v).clone());
        assert_eq!(r, Some(Value::Number(101.0)), "{kind}: the set took");
    } else {
        assert_eq!(kind, "firefox");
        let out = d
            .control(&Action::ContinueToLocation { line: 7 })
            .await
            .unwrap();
        assert!(matches!(out, Output::Error { .. }), "{kind}: {out:?}");
    }
    // The breakpoint again, in the second call: `t` is the program's own again.
    let s = paused(d.control(&Action::Resume).await.unwrap());
    assert_eq!(s.location.line, 3, "{kind}");
    let t = morphtrace_judges::dbdb::visible_variables(s.top_scopes())
        .get("t")
        .map(|v| (*v).clone());
    assert_eq!(t, Some(Value::Number(202.0)), "{kind}");
    // `k` is const: an assignment throws (Bun); Firefox's frame evaluation lets it pass
    // without effect (the value read back is the old one); V8's request may set it regardless.
    let out = apply(d.as_mut(), &set("k", "5")).await.unwrap();
    match kind {
        "bun" => assert!(matches!(out, Output::Error { .. }), "{kind}: {out:?}"),
        "firefox" => assert!(
            matches!(&out, Output::Error { .. })
                || out
                    == Output::VariableSet {
                        name: "k".into(),
                        value: Value::Number(1.0)
                    },
            "{kind}: {out:?}"
        ),
        _ => assert!(
            matches!(out, Output::Error { .. } | Output::VariableSet { .. }),
            "{kind}: {out:?}"
        ),
    }
    let k_set = matches!(out, Output::VariableSet { value: Value::Number(v), .. } if v == 5.0);
    assert!(matches!(
        d.control(&Action::Resume).await.unwrap(),
        Output::Finished { .. }
    ));
    let last = if k_set { "r 207" } else { "r 203" };
    assert_eq!(
        d.console(),
        vec!["r 101".to_string(), last.to_string()],
        "{kind}"
    );
    // Nothing to set once the program ended.
    let out = apply(d.as_mut(), &set("r", "0")).await.unwrap();
    assert!(matches!(out, Output::Error { .. }), "{kind}: {out:?}");
    d.close().await;
    e.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_variable_and_continue_to_location_on_every_engine() {
    for kind in ["node", "chromium", "firefox", "bun", "deno"] {
        set_variable_and_continue(kind).await;
    }
}

/// Restarting a frame runs its function again from its start: the pause is at its first
/// statement, its locals fresh, and what it changed outside stays changed (here a counter the
/// function increments: 2 once it ran twice). A frame the pause does not have is refused;
/// WebKit's protocol has no restart and says so.
async fn restart_frame(kind: &str) {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "restart.js",
        "let calls = 0;\nfunction f(n) {\n  let t = n * 2;\n  calls += 1;\n  return t + 1;\n}\nlet r = f(3);\nconsole.log(\"r\", r, calls);\n",
    );
    let mut e = engine(kind, CaptureOptions::default()).await;
    let mut d = open(&mut e, &p).await;
    d.set_breakpoint(4, None).await.unwrap();
    let s = paused(d.control(&Action::Start).await.unwrap());
    assert_eq!((s.location.line, s.stack.len()), (4, 2), "{kind}");
    let out = d.control(&Action::RestartFrame { frame: 7 }).await.unwrap();
    assert!(matches!(out, Output::Error { .. }), "{kind}: {out:?}");
    let out = d.control(&Action::RestartFrame { frame: 0 }).await.unwrap();
    if !d.restarts_frames() {
        assert_eq!(kind, "bun");
        assert!(matches!(out, Output::Error { .. }), "{kind}: {out:?}");
    } else {
        let s = paused(out);
        assert_eq!(s.location.line, 2, "{kind}: {s:?}");
        assert_eq!(s.reason.name(), "restart-frame", "{kind}");
        assert_eq!(s.stack.len(), 2, "{kind}");
        let vars = morphtrace_judges::dbdb::visible_variables(s.top_scopes());
        assert_eq!(
            vars.get("n").map(|v| (*v).clone()),
            Some(Value::Number(3.0)),
            "{kind}"
        );
        assert_eq!(
            vars.get("t").map(|v| (*v).clone()),
            Some(Value::Uninitialized),
            "{kind}"
        );
        let s = paused(d.control(&Action::Resume).await.unwrap());
        assert_eq!(s.location.line, 4, "{kind}");
    }
    assert!(matches!(
        d.control(&Action::Resume).await.unwrap(),
        Output::Finished { .. }
    ));
    let expected = if d.restarts_frames() {
        "r 7 2"
    } else {
        "r 7 1"
    };
    assert_eq!(d.console(), vec![expected.to_string()], "{kind}");
    d.close().await;
    e.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_frame_on_every_engine() {
    for kind in ["node", "chromium", "firefox", "bun", "deno"] {
        restart_frame(kind).await;
    }
}

/// Evidence for triage.toml's rules on how engines name function expressions in stacks: a method
/// assigned to a prototype (`D.prototype.m = function () {…}`) is `D.m` on V8, `D.prototype.m` on
/// SpiderMonkey (its name with the path it was assigned to) and unnamed on JavaScriptCore; a
/// function returned into a property (`o.k = (function () { return function () {…}; })()`) is
/// unnamed on V8 and JavaScriptCore and `o.k` on SpiderMonkey. The frames are the same functions
/// (ECMAScript gives neither expression a `name`: the debuggers infer one or not). In a
/// three-engine differential under the repository's triage, each such stack divergence is judged
/// a representation and gone past; a stack of another depth would not be (the rules' near misses).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_name_function_expressions_in_stacks_their_own_way() {
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline(
        "names.js",
        "function D() {}\nD.prototype.m = function () {\n  return 1;\n};\nvar o = {};\no.k = (function () {\n  return function () {\n    return 2;\n  };\n})();\nnew D().m();\no.k();\n",
    );
    let mut engines = Vec::new();
    for (kind, method, returned) in [
        ("chromium", "D.m", ""),
        ("firefox", "D.prototype.m", "o.k"),
        ("bun", "", ""),
    ] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(2, None).await.unwrap();
        d.set_breakpoint(7, None).await.unwrap();
        let names = |o: Output| -> Vec<String> {
            paused(o).stack.iter().map(|f| f.function.clone()).collect()
        };
        assert_eq!(
            names(d.control(&Action::Start).await.unwrap()),
            [method, ""],
            "{kind}"
        );
        assert_eq!(
            names(d.control(&Action::Resume).await.unwrap()),
            [returned, ""],
            "{kind}"
        );
        d.close().await;
        engines.push(e);
    }
    let plan = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 2,
                column: None,
            },
            Action::SetBreakpoint {
                line: 7,
                column: None,
            },
            Action::Start,
            Action::Resume,
            Action::Resume,
        ],
    };
    let triage = repo_triage();
    let [c, f, b] = engines.as_mut_slice() else {
        unreachable!()
    };
    let rec = common::lockstep_under(&mut [c, f, b], &p, &plan, &triage).await;
    let stacks: Vec<_> = rec
        .divergences
        .iter()
        .filter(|d| d.kind == DivergenceKind::CallStack)
        .collect();
    assert_eq!(stacks.len(), 2, "{:?}", rec.divergences);
    for d in stacks {
        assert!(
            d.continued
                .as_deref()
                .is_some_and(|c| c.contains("(representation)")),
            "{d:?}"
        );
    }
    for mut e in engines {
        e.shutdown().await;
    }
}

/// Evidence for triage.toml's rule on V8 13's loop heads. While a `for (const y of …)` (or
/// `let`, or `for-in`) head evaluates its iterable, ECMAScript holds the head's names
/// uninitialized in a scope of their own (ForIn/OfHeadEvaluation, step 2): SpiderMonkey,
/// JavaScriptCore and V8 12 (Node 22) list that scope with the name `<uninitialized>`; V8 13
/// (Chromium 156, Node 24) lists no such scope, though the binding is there: a closure the
/// iterable made reads it and throws (the program's `s += 100`). In the loop's body all show
/// the name alike (the near miss). A three-engine session from a breakpoint on the head says
/// where it is (`IN_A_HEADS_ITERABLE`), with V8 alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v8_13_lists_no_scope_for_a_loop_heads_names_while_its_iterable_runs() {
    let _g = SERIAL.lock().await;
    let text = "function* g(n) {\n  yield n;\n}\nlet s = 0;\nfor (const y of g(5)) {\n  s += y;\n}\nfor (const z of [() => z]) {\n  try { z(); } catch (e) { s += 100; }\n}\nfor (let w in { a: 1 }) {\n  s += 1;\n}\nconsole.log(\"s\", s);\n";
    let (_dir, p) = inline("head.js", text);
    // (pause, the head's name there) for each pause: heads on 5, 8 and 11, the first body on 6.
    let expected = |shown: bool| {
        let head = |at: &str, name: &str| {
            let v = shown.then_some(Value::Uninitialized);
            (at.to_string(), name.to_string(), v)
        };
        vec![
            head("5:17", "y"),
            ("6:3".to_string(), "y".to_string(), Some(Value::Number(5.0))),
            head("8:17", "z"),
            head("11:15", "w"),
        ]
    };
    for (kind, shown) in [
        ("chromium", false),
        ("node@24", false),
        ("firefox", true),
        ("bun", true),
        ("node@22", true),
    ] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        for line in [4, 5, 7, 10] {
            d.set_breakpoint(line, None).await.unwrap();
        }
        let mut seen = Vec::new();
        let mut out = d.control(&Action::Start).await.unwrap();
        while let Output::Paused(s) = &out {
            let name = match s.location.line {
                4 | 5 => "y",
                7 => "z",
                _ => "w",
            };
            let value = morphtrace_judges::dbdb::visible_variables(s.top_scopes())
                .get(name)
                .map(|v| (*v).clone());
            seen.push((format!("{}", s.location), name.to_string(), value));
            out = d.control(&Action::Resume).await.unwrap();
        }
        assert!(matches!(out, Output::Finished { .. }), "{kind}: {out:?}");
        assert_eq!(seen, expected(shown), "{kind}");
        // The closure in the iterable read the head's binding, uninitialized: it threw.
        assert_eq!(d.console(), vec!["s 106".to_string()], "{kind}");
        d.close().await;
        e.shutdown().await;
    }
    let triage = repo_triage();
    let [mut c, mut f, mut b] = three_engines().await;
    let rec = common::lockstep_under(
        &mut [&mut c, &mut f, &mut b],
        &p,
        &from_a_breakpoint(4, &[Action::StepOver]),
        &triage,
    )
    .await;
    let d = &rec.divergences[0];
    assert_eq!(
        (d.kind.clone(), d.action.clone(), d.suspect),
        (DivergenceKind::Variables, Action::Start, Some(EngineRef(0))),
        "{:?}",
        rec.divergences
    );
    assert_eq!(
        d.detail,
        "y only on the first side; both sides in the iterable of the loop head that declares it"
    );
    for e in [&mut c, &mut f, &mut b] {
        e.shutdown().await;
    }
}

/// Evidence for triage.toml's rule on a `switch`'s discriminant. ECMAScript evaluates the
/// discriminant, then creates the case block's scope (SwitchStatement's evaluation, steps 1–5):
/// while the discriminant runs, the case block's `const v` does not exist. V8 lists it there,
/// uninitialized; SpiderMonkey and JavaScriptCore do not. In the case, all three show its value
/// (the near miss). In a three-engine session the recorder says where (`IN_A_DISCRIMINANT`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn v8_lists_a_case_blocks_names_while_the_switchs_discriminant_runs() {
    let _g = SERIAL.lock().await;
    let text = "let s = 0;\nfunction f(n) {\n  switch (Math.abs(n) % 2) {\n    case 0:\n      const v = n + 1;\n      s += v;\n      break;\n    default:\n      s += 1;\n  }\n}\nf(2);\nf(3);\nconsole.log(\"s\", s);\n";
    let (_dir, p) = inline("switch.js", text);
    for kind in ["chromium", "node", "node@24", "firefox", "bun"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        for line in [2, 5] {
            d.set_breakpoint(line, None).await.unwrap();
        }
        let mut seen = Vec::new();
        let mut out = d.control(&Action::Start).await.unwrap();
        while let Output::Paused(s) = &out {
            let v = morphtrace_judges::dbdb::visible_variables(s.top_scopes())
                .get("v")
                .map(|v| (*v).clone());
            seen.push((format!("{}", s.location), v));
            out = d.control(&Action::Resume).await.unwrap();
        }
        // V8 pauses at the call (`abs`), the others at the discriminant's start: both in it.
        let (at, before) = match kind {
            "firefox" | "bun" => ("3:11", None),
            _ => ("3:16", Some(Value::Uninitialized)),
        };
        let expected = vec![
            (at.to_string(), before.clone()),
            ("6:7".to_string(), Some(Value::Number(3.0))),
            (at.to_string(), before),
        ];
        assert_eq!(seen, expected, "{kind}");
        d.close().await;
        e.shutdown().await;
    }
    let triage = repo_triage();
    let [mut c, mut f, mut b] = three_engines().await;
    let rec = common::lockstep_under(
        &mut [&mut c, &mut f, &mut b],
        &p,
        &from_a_breakpoint(2, &[Action::Resume]),
        &triage,
    )
    .await;
    // Both calls' discriminants (the breakpoint is there only). Each judged, lockstep goes on.
    let remark = "v only on the second side; both sides in the discriminant of the switch whose cases declare it, one side showing it uninitialized";
    let seen: Vec<(Action, Option<EngineRef>, &str)> = rec
        .divergences
        .iter()
        .map(|d| (d.action.clone(), d.suspect, d.detail.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            (Action::Start, Some(EngineRef(0)), remark),
            (Action::Resume, Some(EngineRef(0)), remark),
        ]
    );
    for d in &rec.divergences {
        assert!(
            d.continued
                .as_deref()
                .is_some_and(|c| c.starts_with("excused by triage rule")),
            "{d:?}"
        );
    }
    for e in [&mut c, &mut f, &mut b] {
        e.shutdown().await;
    }
}

/// The functions of `functions_compare_by_name_and_defining_line`, each in a local of `main`.
const FUNCTIONS: &str = "function decl(a) { return a; }
var expr = function (b) { return b; };
var arrow = (c) => c;
class K {
  m() { return 1; }
}
var obj = { meth() { return 2; } };
var bound = decl.bind(null);
var builtin = Math.max;
class R extends K {
  constructor() { super(); }
}
function main() {
  var f1 = decl, f2 = expr, f3 = arrow, f4 = K, f5 = obj.meth, f6 = bound, f7 = builtin, f8 = R;
  return f1 === f2;
}
main();
";

/// Issue 66: functions and classes compare by name and defining line (before, any function
/// equalled any other). Every engine records a function's `name` (the own data property) and the
/// line its code begins on alike: a declaration, an expression and an arrow named by their
/// bindings, a class (its constructor's line where it has one; JavaScriptCore none for a default
/// constructor, so that line is not compared), a method, a bound function and a built-in
/// (neither of those two has a line of the program). Then a debugger that mixes up two of the program's functions (a planted
/// fault in Chromium's, against real Firefox) shows it, and no rule excuses it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn functions_compare_by_name_and_defining_line() {
    use faults::{Fault, FaultyEngine};
    let _g = SERIAL.lock().await;
    let (_dir, p) = inline("functions.js", FUNCTIONS);
    let mut seen = Vec::new();
    for kind in ["chromium", "firefox", "bun"] {
        let mut e = engine(kind, CaptureOptions::default()).await;
        let mut d = open(&mut e, &p).await;
        d.set_breakpoint(14, None).await.unwrap();
        let at = paused(d.control(&Action::Start).await.unwrap());
        let values: Vec<Value> = (1..=8)
            .map(|i| var(&at, &format!("f{i}")).value.clone())
            .collect();
        seen.push((kind, values));
        d.close().await;
        e.shutdown().await;
    }
    let shown = |v: &[Value]| v.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    let function = |name: &str, line: Option<u32>| match line {
        Some(l) => format!("Function {{ name: {name:?}, [[line]]: {l} }}"),
        None => format!("Function {{ name: {name:?} }}"),
    };
    let expected = |default_constructor_line: bool| {
        vec![
            function("decl", Some(1)),
            function("expr", Some(2)),
            function("arrow", Some(3)),
            function("K", default_constructor_line.then_some(4)),
            function("meth", Some(7)),
            function("bound decl", None),
            function("max", None),
            // A class with a constructor of its own: that constructor's line, on all three.
            function("R", Some(11)),
        ]
    };
    // JavaScriptCore says no line for a class without a constructor of its own (its default
    // constructor is in a script of its own).
    assert_eq!(shown(&seen[0].1), expected(true), "chromium");
    assert_eq!(shown(&seen[1].1), expected(true), "firefox");
    assert_eq!(shown(&seen[2].1), expected(false), "bun");
    // Alike under the comparison, each to each (a line compares where both say one), and each
    // function unlike every other.
    for (a, b) in [(0, 1), (0, 2), (1, 2)] {
        for (x, y) in seen[a].1.iter().zip(&seen[b].1) {
            assert!(x.equal_under(y, true), "{x} vs {y}");
        }
    }
    for (i, x) in seen[2].1.iter().enumerate() {
        for y in &seen[0].1[i + 1..] {
            assert!(!x.equal_under(y, true), "{x} vs {y}");
        }
    }
    let triage = repo_triage();
    let plan = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 14,
                column: None,
            },
            Action::Start,
            Action::Resume,
        ],
    };
    let mut firefox = engine("firefox", CaptureOptions::default()).await;
    let mut faulty = FaultyEngine::wrap(
        engine("chromium", CaptureOptions::default()).await,
        Fault::MixedUp {
            name: "f1".into(),
            as_: "f2".into(),
        },
    );
    let rec = common::lockstep_under(&mut [&mut firefox, &mut faulty], &p, &plan, &triage).await;
    let d = rec
        .divergences
        .first()
        .unwrap_or_else(|| panic!("the mixed-up functions show: {:?}", rec.notes));
    assert_eq!(
        (d.action_index, &d.kind, d.detail.as_str()),
        (
            1,
            &DivergenceKind::Variables,
            "f1.name: \"decl\" vs \"expr\""
        )
    );
    assert!(
        !excused(&rec, d) && d.continued.is_none(),
        "{:?}",
        d.continued
    );
    firefox.shutdown().await;
    faulty.shutdown().await;
}

/// Issue 66: an error's message compares. Where the program wrote it (`new RangeError("out of
/// range")`), every engine shows those words, and one that words them otherwise (the fault layer's
/// `Reword`, planted in Firefox and in Bun) shows, new. Where the engine threw the error itself
/// (reading a property of `null`), V8, SpiderMonkey and JavaScriptCore each word it their own way,
/// which ECMAScript leaves to them; the recorder says neither message is in the program's text,
/// and the by-design rule excuses exactly that.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn error_messages_compare_where_the_program_wrote_them() {
    use faults::{Fault, FaultyEngine};
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline(
        "messages.js",
        "function f(o) {\n  let built = null, written = null;\n  try { o.x; } catch (e) { built = e; }\n  try { throw new RangeError(\"out of range\"); } catch (e) { written = e; }\n  return [built, written];\n}\nf(null);\n",
    );
    // At the return, both errors made; before them, an evaluation that throws one.
    let at_the_return = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 4,
                column: None,
            },
            Action::Start,
            Action::Resume,
        ],
    };
    let evaluating = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 2,
                column: None,
            },
            Action::Start,
            Action::Evaluate {
                expression: "(() => { throw new TypeError(\"out of range\"); })()".into(),
            },
            Action::Resume,
        ],
    };
    let message_of = |d: &morphtrace_schema::Divergence| {
        morphtrace_judges::remark::split(&d.detail)
            .0
            .rsplit_once(" (message ")
            .map(|(_, m)| m.to_string())
    };
    let mut chromium = engine("chromium", CaptureOptions::default()).await;
    for kind in ["firefox", "bun"] {
        let mut o = engine(kind, CaptureOptions::default()).await;
        let rec =
            common::lockstep_under(&mut [&mut chromium, &mut o], &p, &at_the_return, &triage).await;
        // The engine's own words differ, excused; the program's words are alike.
        let built = rec
            .divergences
            .iter()
            .find(|d| d.detail.starts_with("built: "))
            .unwrap_or_else(|| panic!("{kind}: the engines word o.x's error apart: {rec:?}"));
        assert!(
            morphtrace_judges::remark::of(&built.detail)
                == vec![morphtrace_judges::remark::Remark::EngineWordedMessages]
                && excused(&rec, built),
            "{kind}: {built:?}"
        );
        assert!(
            message_of(built).is_some_and(|m| m.starts_with("\"Cannot read properties of null")),
            "{kind}: {built:?}"
        );
        assert!(
            rec.divergences.iter().all(|d| excused(&rec, d)),
            "{kind}: {:?}",
            rec.divergences
        );
        let rec =
            common::lockstep_under(&mut [&mut chromium, &mut o], &p, &evaluating, &triage).await;
        assert!(rec.divergences.is_empty(), "{kind}: {:?}", rec.divergences);
        o.shutdown().await;
        // A message the program wrote, worded otherwise by the debugger: new, at the variable
        // and at the evaluation that threw it.
        let mut faulty = FaultyEngine::wrap(
            engine(kind, CaptureOptions::default()).await,
            Fault::Reword {
                from: "out of range".into(),
                to: "out of bounds".into(),
            },
        );
        for (plan, start, kind_) in [
            (&at_the_return, "written: ", DivergenceKind::Variables),
            (
                &evaluating,
                "evaluated threw TypeError vs TypeError",
                DivergenceKind::Evaluation,
            ),
        ] {
            let rec =
                common::lockstep_under(&mut [&mut chromium, &mut faulty], &p, plan, &triage).await;
            let d = rec
                .divergences
                .iter()
                .find(|d| d.detail.starts_with(start))
                .unwrap_or_else(|| panic!("{kind}: {start} shows: {:?}", rec.divergences));
            assert_eq!(
                (
                    d.kind.clone(),
                    message_of(d).as_deref(),
                    morphtrace_judges::remark::of(&d.detail),
                    excused(&rec, d)
                ),
                (
                    kind_,
                    Some("\"out of range\" vs \"out of bounds\")"),
                    vec![],
                    false
                ),
                "{kind}: {d:?}"
            );
        }
        faulty.shutdown().await;
    }
    chromium.shutdown().await;
}

/// Issue 66: only the top frame's scopes were compared, so a debugger that shows a caller's
/// locals wrong passed. With `--frame-scopes 2` (`CaptureOptions::frame_scopes`), paused in
/// `inner` called from `outer`: real Node and real Firefox both read `outer`'s scopes and agree;
/// a number planted one too high in Node's `outer` frame shows as `frame 2 (outer): used: 3 vs
/// 2`, new (the top frame's rules do not speak of a frame below it). Reading the top frame only
/// (the default), it does not show.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_scopes_of_frames_below_the_top_compare_when_read() {
    use faults::{Fault, FaultyEngine};
    let _g = SERIAL.lock().await;
    let triage = repo_triage();
    let (_dir, p) = inline(
        "frames.js",
        "function inner(n) {\n  return n + 1;\n}\nfunction outer() {\n  var unused = 5;\n  var used = 2;\n  return inner(used);\n}\nouter();\n",
    );
    let plan = Plan::Replay {
        actions: vec![
            Action::SetBreakpoint {
                line: 1,
                column: None,
            },
            Action::Start,
        ],
    };
    let two = CaptureOptions {
        frame_scopes: 2,
        ..CaptureOptions::default()
    };
    let variables = |rec: &Recording| -> Vec<String> {
        rec.divergences
            .iter()
            .filter(|d| d.kind == DivergenceKind::Variables)
            .map(|d| {
                assert!(!excused(rec, d), "{} excused: {:?}", d.detail, d.continued);
                d.detail.clone()
            })
            .collect()
    };
    let mut firefox = engine("firefox", two.clone()).await;
    let mut node = engine("node", two.clone()).await;
    let rec = common::lockstep_under(&mut [&mut node, &mut firefox], &p, &plan, &triage).await;
    let caller = |rec: &Recording, k: usize| {
        rec.traces[k]
            .outputs()
            .find_map(|o| match o {
                Output::Paused(p) => Some(p.stack[1].scopes.len()),
                _ => None,
            })
            .unwrap()
    };
    assert!(
        caller(&rec, 0) > 0 && caller(&rec, 1) > 0,
        "outer's scopes read"
    );
    // The real engines agree there.
    assert_eq!(variables(&rec), Vec::<String>::new());
    node.shutdown().await;
    let mut faulty = FaultyEngine::wrap(
        engine("node", two.clone()).await,
        Fault::WrongNumber {
            name: "used".into(),
        },
    );
    let rec = common::lockstep_under(&mut [&mut faulty, &mut firefox], &p, &plan, &triage).await;
    let shown = variables(&rec);
    assert!(
        shown.contains(&"frame 2 (outer): used: 3 vs 2".to_string()),
        "{shown:?}"
    );
    faulty.shutdown().await;
    firefox.shutdown().await;
    // The top frame only (the default): the callers' scopes are not read, nothing differs.
    let mut firefox = engine("firefox", CaptureOptions::default()).await;
    let mut faulty = FaultyEngine::wrap(
        engine("node", CaptureOptions::default()).await,
        Fault::WrongNumber {
            name: "used".into(),
        },
    );
    let rec = common::lockstep_under(&mut [&mut faulty, &mut firefox], &p, &plan, &triage).await;
    assert_eq!(caller(&rec, 0), 0);
    assert_eq!(variables(&rec), Vec::<String>::new());
    faulty.shutdown().await;
    firefox.shutdown().await;
}
