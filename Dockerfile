# One image for every service of the distributed deployment (docker-compose.yml picks each one's entry point).
FROM node:20-bookworm-slim
WORKDIR /app
# The workspaces' manifests first: the dependencies' layer is rebuilt only when they change.
COPY package.json package-lock.json ./
COPY contracts/package.json contracts/
COPY platform/package.json platform/
COPY command-api/package.json command-api/
COPY projections/package.json projections/
COPY query-api/package.json query-api/
COPY gateway/package.json gateway/
COPY cluster/package.json cluster/
COPY simulator/package.json simulator/
COPY testing/package.json testing/
COPY frontend/package.json frontend/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build
USER node
EXPOSE 3000
CMD ["npx", "tsx", "gateway/src/main.ts"]
