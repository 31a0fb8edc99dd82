# syntax=docker/dockerfile:1
# privmat container image: build with the Maven wrapper, run on a slim JRE 17 as a non-root user.
#   docker build -t privmat:0.1.0 .
#   docker run -p 8080:8080 -e SPRING_DATASOURCE_URL=jdbc:postgresql://db:5432/privmat \
#     -e SPRING_DATASOURCE_USERNAME=privmat -e SPRING_DATASOURCE_PASSWORD=… privmat:0.1.0

FROM eclipse-temurin:17-jdk-jammy AS build
WORKDIR /src
# Dependencies first, so that source changes reuse the cached layer.
COPY mvnw pom.xml ./
COPY .mvn .mvn
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q dependency:go-offline
COPY db-migrations db-migrations
COPY src/main src/main
RUN --mount=type=cache,target=/root/.m2 ./mvnw -B -q -DskipTests package \
    && cp target/privmat-*.jar /tmp/app.jar \
    && java -Djarmode=tools -jar /tmp/app.jar extract --layers --launcher --destination /extracted

FROM eclipse-temurin:17-jre-jammy AS runtime
# OpenBLAS for the native BLAS bridge used by the matrix mechanisms; curl for the health check.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libopenblas0-pthread curl \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 privmat \
    && useradd --system --uid 10001 --gid privmat --home-dir /app --shell /usr/sbin/nologin privmat
WORKDIR /app
# Spring Boot layers, least to most frequently changed.
COPY --from=build /extracted/dependencies/ ./
COPY --from=build /extracted/spring-boot-loader/ ./
COPY --from=build /extracted/snapshot-dependencies/ ./
COPY --from=build /extracted/application/ ./
USER 10001:10001
EXPOSE 8080
# Containers always use an external PostgreSQL; the embedded one is for laptops and tests.
ENV PRIVMAT_EMBEDDED_POSTGRES_ENABLED=false \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -XX:+UseG1GC -Djava.io.tmpdir=/tmp"
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD curl -fsS http://localhost:8080/actuator/health/liveness || exit 1
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
