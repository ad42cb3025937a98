/**
 * Link scanners, chat previews and crawlers. They get a neutral page and never consume a visit.
 * Ordinary HTTP clients such as curl are not in the list: they are how people script a view.
 */
const PREVIEW_AGENTS =
  /slackbot|slack-imgproxy|facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|discordbot|whatsapp|telegrambot|linkedinbot|googlebot|google-inspectiontool|googleother|adsbot-google|bingbot|bingpreview|msnbot|skypeuripreview|microsoftpreview|teamsbot|applebot|yandexbot|baiduspider|duckduckbot|redditbot|pinterestbot|embedly|iframely|vkshare|mastodon|bluesky|cardyb|snapchat|viber|line-poker|kakaotalk-scrap|zoominfobot|petalbot|semrushbot|ahrefsbot|ia_archiver|outlook-ios|mattermost|rocket\.chat|wechat-scraper|bytespider|gptbot|claudebot|perplexitybot/i;

export function isLinkPreviewAgent(userAgent: string | undefined): boolean {
  return userAgent !== undefined && PREVIEW_AGENTS.test(userAgent);
}
