import Testing
@testable import QuarryParseREST
import QuarryCore

/// Every builder method, with the exact IR it lowers to.
@Suite struct BuilderTests {
    let scores = QueryBuilder("GameScore")

    func predicate(_ c: Constraint...) throws -> Filter {
        var q = scores
        for x in c { q = q.where(x) }
        return try q.build().predicate
    }

    @Test func equalityAndComparisons() throws {
        #expect(try predicate("playerName" == "Dan Stemkoski") == eq("playerName", "Dan Stemkoski"))
        #expect(
            try predicate("playerName" != "Michael Yabuti")
                == doc(.compare(key("playerName"), .eq, lit("Michael Yabuti"), []), negated: true))
        #expect(try predicate("wins" < 50) == cmp("wins", .lt, 50))
        #expect(try predicate("wins" <= 50) == cmp("wins", .le, 50))
        #expect(try predicate("wins" > 50) == cmp("wins", .gt, 50))
        #expect(try predicate("wins" >= 50.5) == cmp("wins", .ge, 50.5))
        #expect(try predicate(Field("wins").equalTo(3)) == eq("wins", 3))
        #expect(try predicate("score" == nil) == eq("score", .null))
        #expect(
            try predicate("post" == .pointer(ptr("Post", "1zEcyElZ80")))
                == eq("post", .pointer(ptr("Post", "1zEcyElZ80"))))
    }

    @Test func relativeTimeComparisons() throws {
        let threeDays = Expr.function(.relativeTime, [lit("3 days ago")])
        #expect(
            try predicate("createdAt" > RelativeDate("3 days ago"))
                == doc(.compare(key("createdAt"), .gt, threeDays, [])))
        #expect(
            try predicate("createdAt" <= RelativeDate("3 days ago"))
                == doc(.compare(key("createdAt"), .le, threeDays, [])))
    }

    @Test func listsAndArrays() throws {
        #expect(
            try predicate(Field("playerName").containedIn(["a", "b"]))
                == doc(.inCollection(key("playerName"), list(["a", "b"]), [])))
        #expect(
            try predicate(Field("playerName").notContainedIn(["a"]))
                == doc(.inCollection(key("playerName"), list(["a"]), []), negated: true))
        #expect(
            try predicate(Field("arrayKey").containsAll([2, 3, 4]))
                == doc(.containsAll(key("arrayKey"), list([2, 3, 4]))))
        #expect(
            try predicate(Field("arrayKey").containedBy([1, 2]))
                == doc(.containedBy(key("arrayKey"), list([1, 2]))))
        #expect(try predicate(Field("tags").sizeEqualTo(3)) == doc(.arraySize(key("tags"), 3)))
    }

    @Test func existence() throws {
        #expect(try predicate(Field("score").exists) == doc(.isNull(key("score")), negated: true))
        #expect(try predicate(Field("score").doesNotExist) == doc(.isNull(key("score"))))
    }

    @Test func literalStringTestsKeepTheirMeaning() throws {
        #expect(
            try predicate(Field("name").hasPrefix("Big Daddy's"))
                == doc(.string(key("name"), .beginsWith, lit("Big Daddy's"), [])))
        #expect(
            try predicate(Field("name").hasSuffix("We"))
                == doc(.string(key("name"), .endsWith, lit("We"), [])))
        #expect(
            try predicate(Field("name").containsString("l.nch", caseInsensitive: true))
                == doc(.string(key("name"), .contains, lit("l.nch"), .caseInsensitive)))
        // A literal `\E` inside the text survives the quoting.
        #expect(
            try predicate(Field("path").hasPrefix(#"C:\Easy\E"#))
                == doc(.string(key("path"), .beginsWith, lit(#"C:\Easy\E"#), [])))
    }

    @Test func regexWithModifiers() throws {
        #expect(
            try predicate(Field("playerName").matchesRegex("^Michael"))
                == doc(.string(key("playerName"), .matches(RegexOptions(wholeString: false)), lit("^Michael"), [])))
        #expect(
            try predicate(Field("playerName").matchesRegex("michael", modifiers: "im"))
                == doc(
                    .string(
                        key("playerName"),
                        .matches(RegexOptions(wholeString: false, flags: [.caseInsensitive, .multiline])),
                        lit("michael"), [])))
        // With `m`, `^` matches at every line: the quoted prefix stays a regex.
        let multiline = try predicate(
            Field("name").hasPrefix("a"), Field("name").matchesRegex(#"^\Qa\E"#, modifiers: "m"))
        #expect(
            multiline
                == doc(
                    .string(
                        key("name"), .matches(RegexOptions(wholeString: false, flags: .multiline)),
                        lit(#"^\Qa\E"#), [])))
    }

    @Test func textSearch() throws {
        #expect(
            try predicate(Field("body").matchesText("coffee -tea", language: "en", caseSensitive: true))
                == doc(.text(FieldPath("body"), TextSearch(terms: "coffee -tea", language: "en", caseSensitive: true))))
    }

    @Test func innerQueries() throws {
        let withImages = QueryBuilder("Post").where(Field("image").exists)
        let inner = Query(className: "Post", predicate: doc(.isNull(key("image")), negated: true))
        #expect(try predicate(Field("post").matchesQuery(withImages)) == doc(.inQuery(FieldPath("post"), inner)))
        #expect(
            try predicate(Field("post").doesNotMatchQuery(withImages))
                == doc(.inQuery(FieldPath("post"), inner), negated: true))
        let teams = QueryBuilder("Team").where("winPct" > 0.5).limit(1000)
        var teamQuery = Query(className: "Team", predicate: cmp("winPct", .gt, 0.5))
        teamQuery.limit = 1000
        #expect(
            try predicate(Field("hometown").matchesKey("city", in: teams))
                == doc(.select(FieldPath("hometown"), teamQuery, innerKey: "city")))
        #expect(
            try predicate(Field("hometown").doesNotMatchKey("city", in: teams))
                == doc(.select(FieldPath("hometown"), teamQuery, innerKey: "city"), negated: true))
    }

    @Test func relatedTo() throws {
        let user = ptr("_User", "u1")
        #expect(
            try QueryBuilder("Post").where(.relatedTo(user, key: "likes")).build().predicate
                == doc(.relatedTo(user, key: "likes")))
    }

    @Test func nearSortsByDistanceUnlessOrdered() throws {
        let here = geo(37.7749, -122.4194)
        let q = try scores.where(Field("location").near(here)).limit(10).build()
        #expect(q.predicate == doc(.geo(.near(FieldPath("location"), here, maxDistance: nil))))
        #expect(q.order == [.distance(FieldPath("location"), from: here, .ascending)])
        #expect(q.limit == 10)
        let ordered = try scores.where(Field("location").near(here)).order(.ascending("name")).build()
        #expect(ordered.order == [.key(FieldPath("name"), .ascending)])
    }

    @Test(arguments: [Distance(10, .miles), Distance(16.1, .kilometers), Distance(10 / 3958.8, .radians)])
    func nearWithinDistanceKeepsTheUnit(_ d: Distance) throws {
        let q = try scores.where(Field("location").near(geo(1, 2), within: d)).build()
        #expect(q.predicate == doc(.geo(.near(FieldPath("location"), geo(1, 2), maxDistance: d))))
    }

    @Test func otherDistanceUnitsTravelAsKilometres() throws {
        let q = try scores.where(Field("location").near(geo(1, 2), within: Distance(1500, .meters))).build()
        #expect(
            q.predicate == doc(.geo(.near(FieldPath("location"), geo(1, 2), maxDistance: Distance(1.5, .kilometers)))))
    }

    @Test func geoShapes() throws {
        let sw = geo(37.708813, -122.526398), ne = geo(37.822802, -122.373962)
        #expect(
            try predicate(Field("location").withinGeoBox(southwest: sw, northeast: ne))
                == doc(.geo(.withinBox(FieldPath("location"), southwest: sw, northeast: ne))))
        let triangle = [geo(0, 0), geo(0, 10), geo(10, 0)]
        #expect(
            try predicate(Field("location").withinPolygon(triangle))
                == doc(.geo(.withinPolygon(FieldPath("location"), triangle))))
        #expect(
            try predicate(Field("bounds").polygonContains(geo(1, 1)))
                == doc(.geo(.polygonContains(FieldPath("bounds"), geo(1, 1)))))
        // Circles travel in radians ($centerSphere).
        let circle = try predicate(
            Field("location").withinCircle(center: geo(0, 0), radius: Distance(6371, .kilometers)))
        #expect(
            circle == doc(.geo(.withinCircle(FieldPath("location"), center: geo(0, 0), radius: Distance(1, .radians)))))
    }

    @Test func compoundOperators() throws {
        let or = try predicate(("wins" < 5) || ("wins" > 150))
        #expect(or == .or([cmp("wins", .lt, 5), cmp("wins", .gt, 150)]))
        let three = try predicate("a" == 1 || "b" == 2 || "c" == 3)
        #expect(three == .or([eq("a", 1), eq("b", 2), eq("c", 3)]))
        let and = try predicate(("a" == 1 && "b" == 2) || "c" == 3)
        #expect(and == .or([.and([eq("a", 1), eq("b", 2)]), eq("c", 3)]))
        #expect(try predicate(!("a" == 1)) == doc(.compare(key("a"), .eq, lit(1), []), negated: true))
        #expect(try predicate(!(("a" == 1) && ("b" == 2))) == .not(.and([eq("a", 1), eq("b", 2)])))
        #expect(try predicate(.nor(["a" == 1, "b" == 2])) == .not(.or([eq("a", 1), eq("b", 2)])))
        #expect(try predicate(.and(["a" > 1, "b" == 2])) == .and([cmp("a", .gt, 1), eq("b", 2)]))
    }

    @Test func andKeepsBothSidesOnTheSameKey() throws {
        // `&&` is logical AND: a second `$gt` on the key goes into `$and` instead of replacing.
        #expect(try predicate(("a" > 1) && ("a" > 2)) == .and([cmp("a", .gt, 1), cmp("a", .gt, 2)]))
        #expect(try predicate(("a" == 1) && ("a" == 2)) == .and([eq("a", 1), eq("a", 2)]))
    }

    @Test func repeatedEqualityReplaces() throws {
        // T63: the later equalTo on the same key replaces the earlier one.
        let q = try QueryBuilder("Installation")
            .where("channels" == "suitcaseOwners", "deviceType" == "android")
            .where("deviceType" == "winrt")
            .build()
        #expect(q.predicate == .and([eq("channels", "suitcaseOwners"), eq("deviceType", "winrt")]))
    }

    @Test func operatorsOnOneKeyCombineAndTheSameOperatorReplaces() throws {
        let p = try predicate("wins" > 5, "wins" < 50, "wins" > 7)
        #expect(p == .and([cmp("wins", .gt, 7), cmp("wins", .lt, 50)]))
        // An operator next to an equality keeps both (the equality as `$eq`).
        #expect(try predicate("wins" == 5, "wins" < 50) == .and([eq("wins", 5), cmp("wins", .lt, 50)]))
        // A later equality replaces the whole key, as the SDKs do.
        #expect(try predicate("wins" < 50, "wins" == 5) == eq("wins", 5))
        // hasPrefix and containsString share `$regex`: the later wins.
        #expect(
            try predicate(Field("n").hasPrefix("a"), Field("n").containsString("b"))
                == doc(.string(key("n"), .contains, lit("b"), [])))
    }

    @Test func orQueryWithSubqueries() throws {
        let few = QueryBuilder("Player").where("wins" < 5)
        let lots = QueryBuilder("Player").where("wins" > 150)
        let q = try QueryBuilder.or(few, lots).where("team" == "A").order(.descending("wins")).limit(1).build()
        #expect(q.className == "Player")
        #expect(q.predicate == .and([.or([cmp("wins", .lt, 5), cmp("wins", .gt, 150)]), eq("team", "A")]))
        #expect(q.order == [.key("wins", .descending)])
        #expect(q.limit == 1)
        #expect(
            try QueryBuilder.and(few, lots).build().predicate == .and([cmp("wins", .lt, 5), cmp("wins", .gt, 150)]))
        #expect(
            try QueryBuilder.nor(few, lots).build().predicate
                == .not(.or([cmp("wins", .lt, 5), cmp("wins", .gt, 150)])))
    }

    @Test func resultShaping() throws {
        let q =
            try scores
            .order(.ascending("score"))
            .addingOrder(.descending("playerName"))
            .skip(10).limit(20)
            .select("playerName", "score").select("wins")
            .exclude("cheatMode")
            .include("post", "post.author")
            .build()
        #expect(q.order == [.key("score", .ascending), .key("playerName", .descending)])
        #expect(q.skip == 10 && q.limit == 20)
        #expect(q.keys == ["playerName", "score", "wins"])
        #expect(q.excludeKeys == ["cheatMode"])
        #expect(q.includes == ["post", "post.author"])
        #expect(q.count == false)
        // orderBy replaces an earlier order (TC-26).
        #expect(
            try scores.order(.ascending("score")).order(.descending("username")).build().order
                == [.key("username", .descending)])
    }

    @Test func countAndFirst() throws {
        let base = scores.where("playerName" == "Sean Plott")
        let count = try base.buildCount()
        #expect(count.count && count.predicate == eq("playerName", "Sean Plott"))
        let first = try base.buildFirst()
        #expect(first.limit == 1 && !first.count)
    }

    @Test func profileIsRecordedInOuterAndInnerQueries() throws {
        let q = try scores.where(Field("post").matchesQuery(QueryBuilder("Post"))).build(profile: .parse)
        #expect(q.profile == .parse)
        guard case .leaf(let l) = q.predicate, case .inQuery(_, let inner) = l.condition else {
            Issue.record("expected an inQuery leaf")
            return
        }
        #expect(inner.profile == .parse)
    }
}
