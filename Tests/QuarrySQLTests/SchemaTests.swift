import Testing
import QuarryCore
import QuarrySQL

/// Lowering with a schema: names resolved to their stored spelling, unknown classes and
/// columns, relation checks of the inverted form, type conflicts, compile-time dates.
@Suite struct SchemaTests {
    func lower(_ text: String, on className: String) -> Filter? {
        parsed(text, className: className, schema: seedSchema)
    }

    @Test func columnsResolveCaseInsensitivelyToTheStoredName() {
        // Reference §1.5 / test 68: the guide's own code writes `Coordinates`.
        #expect(
            lower("distance(30.26715, -97.74306, Coordinates.latitude, Coordinates.LONGITUDE) < mi(200)", on: "Friend")
                == sqlLeaf(
                    .geo(
                        .distance(
                            FieldPath("coordinates"), from: GeoPoint(latitude: 30.26715, longitude: -97.74306),
                            .lt, Distance(200, .miles)))))
        // Test 88: keyword and column case.
        #expect(lower("NAME like 'jack%'", on: "Contact") == like("name", "jack%"))
        #expect(lower("Address.CITY = 'Tokyo'", on: "Contact") == cmp("address.city", .eq, "Tokyo"))
        #expect(lower("coordinates.Latitude > 5", on: "Friend") == cmp("coordinates.latitude", .gt, 5))
        #expect(
            lower("objectId IN (comment.blogPost.objectId)", on: "BlogPost")
                == sqlLeaf(
                    .select(
                        FieldPath("objectId"), Query(className: "Comment"), innerKey: FieldPath("blogPost.objectId"))))
    }

    @Test func ambiguousCaseInsensitiveMatchIsAnError() throws {
        let schema = TestSchema(classes: ["T": [("name", .string), ("Name", .string)]])
        let d = try #require(failure("NAME = 'x'", className: "T", schema: schema))
        #expect(d.code == "query.unknown-column")
        #expect(d.message.contains("name, Name"))
        #expect(parsed("Name = 'x'", className: "T", schema: schema) == cmp("Name", .eq, "x"))
    }

    @Test func unknownColumnsSuggestTheClosestName() throws {
        expectError("nmae = 'x'", "query.unknown-column", at: 1, 1, length: 4, className: "Contact", schema: seedSchema)
        #expect(
            failure("nmae = 'x'", className: "Contact", schema: seedSchema)?.message
                == "unknown column 'nmae' in class Contact; did you mean 'name'?")
        let far = try #require(failure("zzzzzz = 1", className: "Contact", schema: seedSchema))
        #expect(far.message == "unknown column 'zzzzzz' in class Contact")
        #expect(far.notes.first?.hasPrefix("columns of Contact: objectId, name, age") == true)
        // Through a pointer, the next class's columns.
        expectError(
            "address.cty = 'x'", "query.unknown-column", at: 1, 9, length: 3, className: "Contact", schema: seedSchema)
        #expect(
            failure("address.cty = 'x'", className: "Contact", schema: seedSchema)?.message.contains("'city'") == true)
        // Below a scalar or a GeoPoint.
        expectError(
            "address.city.zip = 'x'", "query.unknown-column", at: 1, 14, length: 3, className: "Contact",
            schema: seedSchema)
        expectError(
            "coordinates.altitude > 1", "query.unknown-column", at: 1, 13, length: 8, className: "Friend",
            schema: seedSchema)
        // Inside a subquery and an inverted relation: the inner class's columns.
        expectError(
            "objectId IN (Comment[author.emial = 'x'].blogPost.objectId)", "query.unknown-column",
            at: 1, 29, length: 5, className: "BlogPost", schema: seedSchema)
        expectError(
            "objectId IN (Comment.blogPost.objectID2)", "query.unknown-column",
            at: 1, 31, length: 9, className: "BlogPost", schema: seedSchema)
        expectError(
            "PhoneBook[contacts].nmae = 'x'", "query.unknown-column", at: 1, 21, length: 4,
            className: "Contact", schema: seedSchema)
        expectError(
            "PhoneBook[contact].objectId = 'x'", "query.unknown-column", at: 1, 11, length: 7,
            className: "Contact", schema: seedSchema)
    }

    @Test func unknownClasses() throws {
        expectError(
            "objectId IN (Coment.blogPost.objectId)", "query.unknown-class", at: 1, 14, length: 6,
            className: "BlogPost", schema: seedSchema)
        #expect(
            failure("objectId IN (Coment.blogPost.objectId)", className: "BlogPost", schema: seedSchema)?.message
                == "unknown class 'Coment'; did you mean 'Comment'?")
        expectError(
            "PhoneBok[contacts].objectId = 'x'", "query.unknown-class", at: 1, 1, length: 8,
            className: "Contact", schema: seedSchema)
        let top = try #require(failure("name = 'x'", className: "Contcat", schema: seedSchema))
        #expect(top.code == "query.unknown-class")
        #expect(top.range == nil)
        #expect(top.message == "unknown class 'Contcat'; did you mean 'Contact'?")
    }

    @Test func invertedRelationMustNameARelationToTheQueriedClass() throws {
        // Reference §7 test 53: PhoneBook has no `age` relation.
        expectError(
            "PhoneBook[age].objectId = 'pb1'", "query.not-a-relation", at: 1, 11, length: 3,
            className: "Contact", schema: seedSchema)
        // Test 54: `contacts` points to Contact, not Address.
        expectError(
            "PhoneBook[contacts].objectId = 'pb1'", "query.relation-target-mismatch", at: 1, 11, length: 8,
            className: "Address", schema: seedSchema)
        #expect(
            failure("PhoneBook[contacts].objectId = 'pb1'", className: "Address", schema: seedSchema)?.message
                == "PhoneBook.contacts points to Contact, not to Address, the class being queried")
        // One-to-one and one-to-many both qualify.
        #expect(
            lower("PhoneBook[owner].objectId = 'pb2'", on: "Contact")
                == sqlLeaf(
                    .select(
                        FieldPath("objectId"), Query(className: "PhoneBook", predicate: cmp("objectId", .eq, "pb2")),
                        innerKey: FieldPath("owner.objectId"))))
        #expect(
            lower("Person[ADDRESS].objectId = 'p1'", on: "Address")
                == sqlLeaf(
                    .select(
                        FieldPath("objectId"), Query(className: "Person", predicate: cmp("objectId", .eq, "p1")),
                        innerKey: FieldPath("address.objectId"))))
    }

    @Test func typeConflictsAreLocated() {
        let cases: [(String, Int, Int)] = [
            ("age = 'abc'", 7, 5), ("name > 5", 8, 1), ("'abc' = age", 1, 5), ("age IN (1, 'two')", 12, 5),
            ("age BETWEEN 1 AND 'z'", 19, 3), ("active = 1", 10, 1), ("tags = 1", 8, 1), ("age LIKE '1%'", 1, 3),
            ("age after 5", 1, 3), ("address.city = 5", 16, 1),
        ]
        for (text, column, length) in cases {
            expectError(text, "type.mismatch", at: 1, column, length: length, className: "Contact", schema: seedSchema)
        }
        #expect(
            failure("age = 'abc'", className: "Contact", schema: seedSchema)?.message
                == "'age' is a number column but 'abc' is a string")
        expectError(
            "distance(1, 2, name.latitude, name.longitude) < mi(1)", "type.mismatch", at: 1, 16, length: 4,
            className: "Friend", schema: seedSchema)
        expectError(
            "Within(name, 'POLYGON((1 2, 3 4, 5 6, 1 2))') = TRUE", "type.mismatch", at: 1, 8, length: 4,
            className: "Friend", schema: seedSchema)
        // Element types of arrays; booleans.
        #expect(
            lower("tags = 'a' AND active = TRUE", on: "Contact")
                == .and([cmp("tags", .eq, "a"), cmp("active", .eq, true)]))
    }

    @Test func dateColumnsConvertLiteralsAtCompileTime() {
        let ms: Int64 = 1_427_068_800_000
        #expect(lower("updated > 1427068800000", on: "Contact") == cmp("updated", .gt, .date(ms)))
        #expect(lower("updated = '2015-03-23T00:00:00.000Z'", on: "Contact") == cmp("updated", .eq, .date(ms)))
        #expect(
            lower("'2015-03-23T00:00:00.000Z' <= updated", on: "Contact")
                == sqlLeaf(.compare(lit(.date(ms)), .le, key("updated"), [])))
        #expect(
            lower("updated IN (1427068800000, 0)", on: "Contact")
                == sqlLeaf(.inCollection(key("updated"), .list([lit(.date(ms)), lit(.date(0))]), [])))
        #expect(
            lower("updated NOT BETWEEN 0 AND 1427068800000", on: "Contact")
                == sqlLeaf(.between(key("updated"), lower: lit(.date(0)), upper: lit(.date(ms))), negated: true))
        #expect(
            lower("updated at or before created", on: "Contact")
                == sqlLeaf(.compare(key("updated"), .le, key("created"), [])))
        expectError(
            "updated > 'garbage'", "date.unparseable", at: 1, 11, length: 9, className: "Contact", schema: seedSchema)
        expectError("updated = TRUE", "type.mismatch", at: 1, 11, length: 4, className: "Contact", schema: seedSchema)
    }

    @Test func everySemanticErrorIsReported() {
        do {
            _ = try SQLWhere.parse(
                "nmae = 'x' AND age = 'abc' OR PhoneBook[age].objectId = 'p'",
                className: "Contact", schema: seedSchema)
            Issue.record("expected errors")
        } catch {
            #expect(error.all.map(\.code) == ["query.unknown-column", "type.mismatch", "query.not-a-relation"])
        }
    }

    @Test func databaseIsASchema() throws {
        var db = Database()
        db.insert(
            Record(
                objectId: "f1",
                fields: [
                    ("name", "Bob"),
                    ("coordinates", .geoPoint(GeoPoint(latitude: 1, longitude: 2))),
                ]),
            into: "Friend")
        #expect(
            parsed(
                "distance(1, 2, Coordinates.latitude, Coordinates.longitude) < km(1) AND objectId = 'f1'",
                className: "Friend", schema: db)
                == .and([
                    sqlLeaf(
                        .geo(
                            .distance(
                                FieldPath("coordinates"), from: GeoPoint(latitude: 1, longitude: 2), .lt,
                                Distance(1, .kilometers)))), cmp("objectId", .eq, "f1"),
                ]))
        #expect(
            failure("nam = 'x'", className: "Friend", schema: db)?.message
                == "unknown column 'nam' in class Friend; did you mean 'name'?")
    }

    @Test func withoutASchemaNamesPassThrough() {
        #expect(
            parsed("Nope.whatever = 1 AND x IN (Missing.y)", className: "Contact")
                == .and([
                    cmp("Nope.whatever", .eq, 1),
                    sqlLeaf(.select(FieldPath("x"), Query(className: "Missing"), innerKey: FieldPath("y"))),
                ]))
    }
}
