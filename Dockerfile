# Rhapsode: a static binary on a minimal, non-root image.
#
#   docker build -t rhapsode .
#   docker run -it -v rhapsode-data:/data rhapsode                              # the local table
#   docker run -e DISCORD_TOKEN=... -v rhapsode-data:/data rhapsode             # the Discord bot (gateway)
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
ENTRYPOINT ["/usr/local/bin/rhapsode"]
CMD ["--db", "/data/rhapsode.db"]
