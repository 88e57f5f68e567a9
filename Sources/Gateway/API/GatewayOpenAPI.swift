import APNs

/// `GET /openapi.json`: OpenAPI 3.1 made from the route table itself.
enum GatewayOpenAPI {
    static func document(for routes: [GatewayRoute]) -> JSONValue {
        var paths = JSONObject()
        var byPattern: [String: JSONObject] = [:]
        var order: [String] = []
        for route in routes {
            if byPattern[route.pattern] == nil { order.append(route.pattern) }
            byPattern[route.pattern, default: JSONObject()].append(
                key: route.method.lowercased(), value: operation(route))
        }
        for pattern in order { paths.append(key: pattern, value: .object(byPattern[pattern] ?? JSONObject())) }
        return [
            "openapi": "3.1.0",
            "info": [
                "title": "Herald gateway",
                "version": "1",
                "description": "Apple push notifications for your apps: devices, sends, deliveries (docs/GATEWAY.md).",
            ],
            "paths": .object(paths),
            "components": [
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer"]],
                "schemas": ["Error": errorSchema],
            ],
        ]
    }

    private static func operation(_ route: GatewayRoute) -> JSONValue {
        var object = JSONObject()
        object.append(key: "operationId", value: .string(route.operation.rawValue))
        object.append(key: "summary", value: .string(route.summary))
        let parameters = route.pattern.split(separator: "/").filter { $0.first == "{" }.map {
            JSONValue.object(
                JSONObject([
                    .init(key: "name", value: .string(String($0.dropFirst().dropLast()))),
                    .init(key: "in", value: "path"), .init(key: "required", value: true),
                    .init(key: "schema", value: ["type": "string"]),
                ]))
        }
        let query = route.queryParameters.map { name -> JSONValue in
            ["name": .string(name), "in": "query", "required": false, "schema": ["type": "string"]]
        }
        if !parameters.isEmpty || !query.isEmpty { object.append(key: "parameters", value: .array(parameters + query)) }
        if let schema = route.requestSchema {
            object.append(
                key: "requestBody",
                value: ["required": false, "content": ["application/json": ["schema": schema]]])
        }
        if let scope = route.scope {
            object.append(key: "security", value: [["bearer": []]])
            object.append(key: "x-herald-scope", value: .string(scope.rawValue))
        } else {
            object.append(key: "security", value: [])
        }
        var responses = JSONObject()
        for (status, description) in route.responses.sorted(by: { $0.key < $1.key }) {
            responses.append(key: String(status), value: ["description": .string(description)])
        }
        let error: JSONValue = [
            "description": "`{\"error\":{\"code\",\"message\",\"field\"}}`",
            "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Error"]]],
        ]
        responses.append(key: "default", value: error)
        object.append(key: "responses", value: .object(responses))
        return .object(object)
    }

    private static let errorSchema: JSONValue = [
        "type": "object",
        "required": ["error"],
        "properties": [
            "error": [
                "type": "object",
                "required": ["code", "message"],
                "properties": [
                    "code": ["type": "string"], "message": ["type": "string"], "field": ["type": "string"],
                ],
            ]
        ],
    ]
}
