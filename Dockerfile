# Rhapsode: a static binary on a minimal, non-root image.
#
#   docker build -t rhapsode .
#   docker run -e DISCORD_TOKEN=... -v rhapsode-data:/data rhapsode             # the Discord bot (gateway), /healthz on :8081
#   docker run -it -v rhapsode-data:/data rhapsode local --db /data/rhapsode.db # the local table
#   docker run -p 8080:8080 -e DISCORD_PUBLIC_KEY=... -e DISCORD_TOKEN=... -v rhapsode-data:/data \
#     rhapsode serve --interactions :8080 --db /data/rhapsode.db                 # the HTTP interactions endpoint
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/rhapsode ./cmd/rhapsode \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/rhapsode /usr/local/bin/rhapsode
COPY --from=build --chown=nonroot:nonroot /out/data /data
USER nonroot:nonroot
WORKDIR /data
VOLUME /data
EXPOSE 8081
# gateway and serve both answer GET /healthz on :8081 unless --health says
# otherwise. The image has no shell or curl: the binary asks its own
# health endpoint.
ENV RHAPSODE_HEALTH=:8081
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["/usr/local/bin/rhapsode", "health", "--url", "http://127.0.0.1:8081/healthz"]
ENTRYPOINT ["/usr/local/bin/rhapsode"]
CMD ["gateway", "--db", "/data/rhapsode.db"]
