/**
 * Link scanners, chat previews and crawlers. They get a neutral page and never consume a visit.
 * Ordinary HTTP clients such as curl are not in the list: they are how people script a view.
 */
const PREVIEW_AGENTS =
  /slackbot|slack-imgproxy|facebookexternalhit|facebookcatalog|meta-externalagent|twitterbot|discordbot|whatsapp|telegrambot|linkedinbot|googlebot|google-inspectiontool|googleother|google-pagerenderer|googleimageproxy|google-safety|adsbot-google|bingbot|bingpreview|msnbot|skypeuripreview|microsoftpreview|teamsbot|applebot|yandexbot|baiduspider|duckduckbot|redditbot|pinterestbot|embedly|iframely|vkshare|mastodon|bluesky|cardyb|snapchat|viber|line-poker|kakaotalk-scrap|zoominfobot|petalbot|semrushbot|ahrefsbot|ia_archiver|outlook-ios|mattermost|rocket\.chat|wechat-scraper|bytespider|gptbot|claudebot|perplexitybot/i;

/**
 * Microsoft Office, Outlook and Teams check a link before (or instead of) opening it in the
 * browser: "Microsoft Office Existence Discovery" and "Microsoft Office Protocol Discovery",
 * the "ms-office; MSOffice 16" fetch of a clicked link, "Microsoft Office/16.0 (…; Microsoft
 * Outlook 16.0…)", and Teams' own fetches ("Teams/1.x", "MSTeams", "Microsoft Teams").
 */
const OFFICE_LINK_CHECKERS = /microsoft office|ms-office|msoffice|microsoft outlook|\b(?:ms)?teams\b/i;

export function isLinkPreviewAgent(userAgent: string | undefined): boolean {
  return userAgent !== undefined && (PREVIEW_AGENTS.test(userAgent) || OFFICE_LINK_CHECKERS.test(userAgent));
}
